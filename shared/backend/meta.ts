/**
 * `.pulumi/meta.yaml` as Pulumi v3.274.1 reads it (pkg/backend/diy/meta.go's readPulumiMeta: the raw
 * bytes, never inflated, unmarshalled by yaml.v3 into `{version *int}`): a mapping whose `version`
 * is an integer. What Pulumi refuses is refused here too, with the reason:
 *
 * - an empty file, no `version` key, or `version: null` ("corrupt store: missing version");
 * - a version that is no integer: a string, quoted or not, a list, a mapping, a bool, out of int64;
 * - YAML it cannot read (control characters, a document that is no mapping).
 *
 * As yaml.v3 decodes a number into an int, a float is truncated (`1.0` and `1.5` are 1, `0.9` is 0),
 * `_` separators are dropped, and `0x`, `0o`, `0b` and a leading `0` (octal) are read. This is a
 * subset of YAML: a block mapping of `key: value` lines (values of other keys are skipped), or a
 * one-line flow mapping; anchors, tags and multi-document files are refused.
 */
import * as l10n from '@vscode/l10n';

/** The version, or why the file is a corrupt store. */
export type MetaReading = { version: number } | { corrupt: string };

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
// yaml.v3's yamlStyleFloat, after `_` is removed.
const FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** A plain scalar as yaml.v3 resolves it and decodes it into an int: the int, null (absent), or why not. */
function versionOf(scalar: string): number | null | string {
  if (NULLS.has(scalar)) return null;
  if (/^["']/.test(scalar)) return l10n.t('version {0} is a string, not an integer', scalar);
  if (/^[[{]/.test(scalar)) return l10n.t('version {0} is a collection, not an integer', scalar);
  const plain = scalar.replace(/_/g, '');
  const integer = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[1-9][0-9]*|0)$/.exec(plain);
  if (integer) {
    const [, sign, digits] = integer;
    const prefixed = /^0[oO]/.test(digits) ? `0o${digits.slice(2)}` : /^0[0-7]/.test(digits) ? `0o${digits.slice(1)}` : digits;
    const value = BigInt(prefixed) * (sign === '-' ? -1n : 1n);
    if (value < INT64_MIN || value > INT64_MAX) return l10n.t('version {0} is out of range', scalar);
    return Number(value);
  }
  if (FLOAT.test(plain)) {
    const value = Math.trunc(Number(plain));
    if (!Number.isFinite(value) || value >= 2 ** 63 || value < -(2 ** 63)) return l10n.t('version {0} is out of range', scalar);
    return value === 0 ? 0 : value;
  }
  return l10n.t('version {0} is not an integer', scalar);
}

/** A line without its comment (`#` at its start or after a space), trimmed at the end. */
function withoutComment(line: string): string {
  const at = line.search(/(^|\s)#/);
  return (at === -1 ? line : line.slice(0, at)).trimEnd();
}

/** Reads meta.yaml's bytes as Pulumi does. */
export function readMetaYaml(bytes: Uint8Array): MetaReading {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { corrupt: l10n.t('it is not UTF-8 text') };
  }
  // yaml.v3 refuses C0 controls but tab and line ends, DEL and C1 controls but NEL.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u0084\u0086-\u009f]/.test(text)) return { corrupt: l10n.t('it holds control characters') };
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  let version: string | undefined;
  let lastKey: string | undefined;
  let documents = 0;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const content = withoutComment(line);
    if (content === '') continue;
    if (/^---(\s|$)/.test(line)) {
      // yaml.v3's Unmarshal reads the first document only.
      if (++documents > 1) break;
      continue;
    }
    if (line === '...') break;
    if (/^\s/.test(line)) {
      // The value of the key before, on more lines: nested (another key's), or version's own.
      if (lastKey === 'version') version = version === '' ? content.trim() : `${version} ${content.trim()}`;
      continue;
    }
    if (content.startsWith('{')) {
      const flow = /^\{(.*)\}$/.exec(content);
      if (!flow) return { corrupt: l10n.t('line {0}: a flow mapping not closed on its line', index + 1) };
      for (const pair of flow[1].split(',')) {
        const member = /^\s*("version"|'version'|version)\s*:(\s+(.*))?$/.exec(pair);
        if (!member) continue;
        if (version !== undefined) return { corrupt: l10n.t('line {0}: mapping key "version" already defined', index + 1) };
        version = (member[3] ?? '').trim();
      }
      lastKey = undefined;
      continue;
    }
    const member = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{}[\],&*!|>%@`-][^:#]*?|-[^\s:][^:#]*?)\s*:(?:\s+(.*))?$/.exec(content);
    if (!member) {
      if (content.startsWith('- ') || content === '-') return { corrupt: l10n.t('line {0}: a list, not a mapping', index + 1) };
      return { corrupt: l10n.t('line {0}: not a "key: value" line', index + 1) };
    }
    lastKey = member[1].replace(/^["'](.*)["']$/, '$1');
    if (lastKey !== 'version') continue;
    if (version !== undefined) return { corrupt: l10n.t('line {0}: mapping key "version" already defined', index + 1) };
    version = (member[2] ?? '').trim();
  }
  if (version === undefined) return { corrupt: l10n.t('missing version') };
  const value = versionOf(version);
  if (value === null) return { corrupt: l10n.t('missing version') };
  if (typeof value === 'string') return { corrupt: value };
  return { version: value };
}
