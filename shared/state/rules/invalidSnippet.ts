/**
 * `invalid-snippet`: the snippet rules of `Snapshot.VerifyIntegrity` (pkg/resource/deploy/snapshot.go)
 * and of `VerifyIntegrity` (pkg/resource/stack/snapshot/integrity.go): every snippet has a `uuid`,
 * and no two share one.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import type { StateFinding } from '../passes/findings';
import { insertFirstMemberEdit, locate, pathOf, replaceValue } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, version }: StateRuleContext): StateFinding[] {
  // Snippets exist from version 3 on: a version-1 or -2 document's are never read.
  if (version !== 3 || !structure.deploymentPath) return [];
  const snippetsPath = [...structure.deploymentPath, 'snippets'];
  const snippets = valueAt(structure.root, snippetsPath);
  if (!Array.isArray(snippets)) return [];
  const out: StateFinding[] = [];
  const firstIndex = new Map<string, number>();
  snippets.forEach((snippet, index) => {
    if (!isObject(snippet)) return; // the schema reports it
    const finding = snippetFinding(snippet, index, snippetsPath, firstIndex);
    if (finding) out.push(finding);
  });
  return out;
}

/** The problem of one snippet, given the first index of each uuid before it (which it extends). */
function snippetFinding(snippet: JsonObject, index: number, snippetsPath: Array<string | number>, firstIndex: Map<string, number>): StateFinding | undefined {
  const path = [...snippetsPath, index];
  const uuid = snippet.uuid;
  if (typeof uuid !== 'string' || uuid === '') {
    return {
      code: 'invalid-snippet',
      message: l10n.t('Snippet at index {0} is missing the required "uuid" field', index),
      at: typeof uuid === 'string' ? { path: [...path, 'uuid'], part: 'value' } : { path, part: 'head' },
      data: { path, missing: true },
    };
  }
  const other = firstIndex.get(uuid);
  if (other === undefined) {
    firstIndex.set(uuid, index);
    return undefined;
  }
  return {
    code: 'invalid-snippet',
    message: l10n.t('Duplicate snippet uuid "{0}" at indexes {1} and {2}', uuid, other, index),
    at: { path: [...path, 'uuid'], part: 'value' },
    related: [{ at: { path: [...snippetsPath, other, 'uuid'], part: 'value' }, message: l10n.t('Snippet {0} has uuid "{1}"', other, uuid) }],
    data: { path, uuid, duplicateOf: other },
  };
}

function addSnippetUuidFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const path = pathOf(data);
  if (data.missing !== true || !path) return [];
  const existing = locate(analysis, [...path, 'uuid']);
  // Web Crypto's randomUUID is synchronous and global in Node 20 and in browser workers alike.
  const uuid = globalThis.crypto.randomUUID();
  const edit = existing ? replaceValue(existing, uuid) : insertFirstMemberEdit(analysis, path, 'uuid', uuid);
  return edit ? [{ title: l10n.t('Add a snippet uuid'), edits: [edit], preferred: true }] : [];
}

export const invalidSnippet: StateRule = {
  code: 'invalid-snippet',
  doc: 'A snippet without a `uuid`, or two snippets with one `uuid`.',
  check,
  fix: addSnippetUuidFix,
};
