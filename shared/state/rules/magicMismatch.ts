/**
 * `magic-mismatch`: VerifyIntegrity's first rule, the manifest magic is the SHA-256 of its version
 * ("" for ""). In pulumi mode an absent manifest, version or magic reads as Go's zero value, the
 * empty string (`apitype.ManifestV1`), so a deployment without a manifest passes, as in Pulumi.
 */
import * as l10n from '@vscode/l10n';
// Pure JS and synchronous, so the same code runs in Node and in a browser worker (WebCrypto is asynchronous).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { isObject, valueAt } from '../model/structure';
import { valueAnchor, type StateFinding } from '../passes/findings';
import { located, replaceValue } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function magicOf(version: string): string {
  return version === '' ? '' : bytesToHex(sha256(utf8ToBytes(version)));
}

function check({ structure, mode }: StateRuleContext): StateFinding[] {
  if (!structure.deploymentPath) return [];
  const manifestPath = [...structure.deploymentPath, 'manifest'];
  const manifest = valueAt(structure.root, manifestPath);
  if (!isObject(manifest)) return [];
  const version = typeof manifest.version === 'string' ? manifest.version : mode === 'pulumi' && manifest.version == null ? '' : undefined;
  const magic = typeof manifest.magic === 'string' ? manifest.magic : mode === 'pulumi' && manifest.magic == null ? '' : undefined;
  if (version === undefined || magic === undefined) return [];
  const expected = magicOf(version);
  if (magic === expected) return [];
  return [
    {
      code: 'magic-mismatch',
      message: l10n.t('Manifest magic does not match the SHA-256 of version "{0}" (expected "{1}")', version, expected),
      at: valueAnchor([...manifestPath, typeof manifest.magic === 'string' ? 'magic' : 'version']),
      data: { path: [...manifestPath, 'magic'], expected },
    },
  ];
}

function recomputeMagicFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  if (!node || typeof data.expected !== 'string') return [];
  return [{ title: l10n.t('Recompute the manifest magic'), edits: [replaceValue(node, data.expected)], preferred: true }];
}

export const magicMismatch: StateRule = {
  code: 'magic-mismatch',
  doc: "The manifest magic is not the SHA-256 of the manifest's version.",
  check,
  fix: recomputeMagicFix,
};
