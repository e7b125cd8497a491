/**
 * `unsupported-version`: a state version Pulumi's loader cannot load (in seed-v3 mode: any version
 * but 3, only a warning, since the records are still checked). Each rule names the Pulumi source
 * that decides it (repository pulumi/pulumi).
 */
import * as l10n from '@vscode/l10n';
import { isObject, type StateStructure } from '../model/structure';
import type { StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, mode }: StateRuleContext): StateFinding[] {
  const root = structure.root;
  if ((structure.shape !== 'export' && structure.shape !== 'checkpoint') || !isObject(root)) return [];
  if (structure.legacyCheckpoint) {
    if (mode === 'pulumi') return [];
    const message = l10n.t('A legacy checkpoint (no "version", "latest" at the top) is not supported in seed-v3 mode (only version 3); the records are still checked');
    return [{ code: 'unsupported-version', message, at: { path: [], part: 'head' }, data: { version: 0 } }];
  }
  const version = root.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) return []; // the schema reports it
  const message = mode === 'seed-v3' ? seedV3Problem(version) : pulumiProblem(structure, version);
  return message ? [{ code: 'unsupported-version', message, at: { path: ['version'], part: 'value' }, data: { version } }] : [];
}

function seedV3Problem(version: number): string | undefined {
  if (version === 3) return undefined;
  return l10n.t('Version {0} is not supported in seed-v3 mode (only version 3); the records are still checked against the v3 schema', version);
}

function pulumiProblem(structure: StateStructure, version: number): string | undefined {
  if (structure.shape === 'checkpoint') {
    // pkg/resource/stack/checkpoint.go UnmarshalVersionedCheckpointToLatestCheckpoint: 0 (legacy), 1 and 2
    // (migrated to 3), 3 and 4 load; any other version fails with "unsupported checkpoint version".
    if (version >= 0 && version <= 4) return undefined;
    return l10n.t('Pulumi refuses this file: unsupported checkpoint version {0} (it loads versions 1 to 4)', version);
  }
  // pkg/resource/stack/deployment.go UnmarshalUntypedDeployment: DeploymentSchemaVersionOldestSupported (1)
  // to DeploymentSchemaVersionLatest (4); outside, ErrDeploymentSchemaVersionTooOld / TooNew.
  if (version >= 1 && version <= 4) return undefined;
  return version < 1
    ? l10n.t("Pulumi refuses this file: this stack's deployment is too old (version {0}; it loads versions 1 to 4)", version)
    : l10n.t("Pulumi refuses this file: this stack's deployment version is too new (version {0}; it loads versions 1 to 4)", version);
}

export const unsupportedVersion: StateRule = {
  code: 'unsupported-version',
  doc: 'A state version Pulumi cannot load (seed-v3 mode: any version but 3); the checks still run.',
  check,
};
