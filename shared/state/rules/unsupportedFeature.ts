/**
 * `unsupported-feature`: a version-4 `features` entry Pulumi does not support
 * (pkg/resource/stack/deployment.go `validateSupportedFeatures`, called for version ≥ 4 by
 * `UnmarshalUntypedDeployment` and for version 4 by checkpoint.go; version 3 ignores `features`).
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { isObject } from '../model/structure';
import type { StateFinding } from '../passes/findings';
import { located, removalEdit } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

/**
 * `supportedFeatures` in pkg/resource/stack/deployment.go: the feature names a version-4
 * deployment may require. Anything else makes `validateSupportedFeatures` refuse the file.
 */
const SUPPORTED_FEATURES: ReadonlySet<string> = new Set(['refreshBeforeUpdate', 'views', 'hooks', 'taint', 'replaceWith', 'snippets-prototype', 'extensionParameterization', 'byteString']);

function check({ structure, mode }: StateRuleContext): StateFinding[] {
  // The seed's v3 schema has no features: there the schema reports them.
  if (mode !== 'pulumi') return [];
  const root = structure.root;
  if (!isObject(root) || typeof root.version !== 'number' || root.version < 4 || !Array.isArray(root.features)) return [];
  const unsupported = root.features.filter((feature): feature is string => typeof feature === 'string' && !SUPPORTED_FEATURES.has(feature));
  const out: StateFinding[] = [];
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
  return out;
}

function removeUnsupportedFeatureFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  return node ? [{ title: l10n.t('Remove the unsupported feature "{0}"', String(data.feature)), edits: [removalEdit(analysis.text, node)], preferred: true }] : [];
}

export const unsupportedFeature: StateRule = {
  code: 'unsupported-feature',
  doc: 'A version-4 `features` entry Pulumi does not support.',
  check,
  fix: removeUnsupportedFeatureFix,
};
