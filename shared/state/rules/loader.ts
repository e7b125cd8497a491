/**
 * The checks Pulumi's loader makes before its integrity check: which versions load, which version-4
 * features it supports, and the snippets' ids. Each rule names the Pulumi source that decides it
 * (repository pulumi/pulumi).
 */
import * as l10n from '@vscode/l10n';
import type { StateSchemaMode } from '../codes';
import { isObject, recordVersion, valueAt, type StateStructure } from '../model/structure';
import type { StateFinding } from './findings';

/**
 * `supportedFeatures` in pkg/resource/stack/deployment.go: the feature names a version-4
 * deployment may require. Anything else makes `validateSupportedFeatures` refuse the file.
 */
const SUPPORTED_FEATURES: ReadonlySet<string> = new Set(['refreshBeforeUpdate', 'views', 'hooks', 'taint', 'replaceWith', 'snippets-prototype', 'extensionParameterization', 'byteString']);

export function loaderDiagnostics(structure: StateStructure, mode: StateSchemaMode): StateFinding[] {
  const out: StateFinding[] = [];
  checkVersion(structure, mode, out);
  if (mode === 'pulumi') checkFeatures(structure, out);
  // Snippets exist from version 3 on: a version-1 or -2 document's are never read.
  if (recordVersion(structure, mode) === 3) checkSnippets(structure, out);
  return out;
}

function checkVersion(structure: StateStructure, mode: StateSchemaMode, out: StateFinding[]): void {
  const root = structure.root;
  if ((structure.shape !== 'export' && structure.shape !== 'checkpoint') || !isObject(root)) return;
  if (structure.legacyCheckpoint) {
    if (mode === 'seed-v3') {
      out.push({
        code: 'unsupported-version',
        message: l10n.t('A legacy checkpoint (no "version", "latest" at the top) is not supported in seed-v3 mode (only version 3); the records are still checked'),
        at: { path: [], part: 'head' },
        data: { version: 0 },
      });
    }
    return;
  }
  const version = root.version;
  if (typeof version !== 'number' || !Number.isInteger(version)) return; // the schema reports it
  const at = { path: ['version'], part: 'value' as const };
  if (mode === 'seed-v3') {
    if (version !== 3) {
      out.push({
        code: 'unsupported-version',
        message: l10n.t('Version {0} is not supported in seed-v3 mode (only version 3); the records are still checked against the v3 schema', version),
        at,
        data: { version },
      });
    }
    return;
  }
  if (structure.shape === 'checkpoint') {
    // pkg/resource/stack/checkpoint.go UnmarshalVersionedCheckpointToLatestCheckpoint: 0 (legacy), 1 and 2
    // (migrated to 3), 3 and 4 load; any other version fails with "unsupported checkpoint version".
    if (version < 0 || version > 4) {
      out.push({ code: 'unsupported-version', message: l10n.t('Pulumi refuses this file: unsupported checkpoint version {0} (it loads versions 1 to 4)', version), at, data: { version } });
    }
    return;
  }
  // pkg/resource/stack/deployment.go UnmarshalUntypedDeployment: DeploymentSchemaVersionOldestSupported (1)
  // to DeploymentSchemaVersionLatest (4); outside, ErrDeploymentSchemaVersionTooOld / TooNew.
  if (version < 1 || version > 4) {
    const message =
      version < 1
        ? l10n.t("Pulumi refuses this file: this stack's deployment is too old (version {0}; it loads versions 1 to 4)", version)
        : l10n.t("Pulumi refuses this file: this stack's deployment version is too new (version {0}; it loads versions 1 to 4)", version);
    out.push({ code: 'unsupported-version', message, at, data: { version } });
  }
}

/**
 * pkg/resource/stack/deployment.go `validateSupportedFeatures`, called for version ≥ 4 by
 * `UnmarshalUntypedDeployment` and for version 4 by checkpoint.go; version 3 ignores `features`.
 */
function checkFeatures(structure: StateStructure, out: StateFinding[]): void {
  const root = structure.root;
  if (!isObject(root) || typeof root.version !== 'number' || root.version < 4 || !Array.isArray(root.features)) return;
  const unsupported = root.features.filter((feature): feature is string => typeof feature === 'string' && !SUPPORTED_FEATURES.has(feature));
  root.features.forEach((feature, index) => {
    if (typeof feature !== 'string' || SUPPORTED_FEATURES.has(feature)) return;
    const path = ['features', index];
    out.push({
      code: 'unsupported-feature',
      message: l10n.t('Pulumi refuses this file: this stack\'s deployment needs support for the following features: {0} ("{1}" is not one Pulumi supports)', unsupported.join(', '), feature),
      at: { path, part: 'value' },
      data: { path, feature },
    });
  });
}

/**
 * The snippet rules of `Snapshot.VerifyIntegrity` (pkg/resource/deploy/snapshot.go) and of
 * `VerifyIntegrity` (pkg/resource/stack/snapshot/integrity.go): every snippet has a `uuid`, and no two share one.
 */
function checkSnippets(structure: StateStructure, out: StateFinding[]): void {
  if (!structure.deploymentPath) return;
  const snippetsPath = [...structure.deploymentPath, 'snippets'];
  const snippets = valueAt(structure.root, snippetsPath);
  if (!Array.isArray(snippets)) return;
  const firstIndex = new Map<string, number>();
  snippets.forEach((snippet, index) => {
    if (!isObject(snippet)) return; // the schema reports it
    const path = [...snippetsPath, index];
    const uuid = snippet.uuid;
    if (typeof uuid !== 'string' || uuid === '') {
      out.push({
        code: 'invalid-snippet',
        message: l10n.t('Snippet at index {0} is missing the required "uuid" field', index),
        at: typeof uuid === 'string' ? { path: [...path, 'uuid'], part: 'value' } : { path, part: 'head' },
        data: { path, missing: true },
      });
      return;
    }
    const other = firstIndex.get(uuid);
    if (other === undefined) {
      firstIndex.set(uuid, index);
      return;
    }
    out.push({
      code: 'invalid-snippet',
      message: l10n.t('Duplicate snippet uuid "{0}" at indexes {1} and {2}', uuid, other, index),
      at: { path: [...path, 'uuid'], part: 'value' },
      related: [{ at: { path: [...snippetsPath, other, 'uuid'], part: 'value' }, message: l10n.t('Snippet {0} has uuid "{1}"', other, uuid) }],
      data: { path, uuid, duplicateOf: other },
    });
  });
}
