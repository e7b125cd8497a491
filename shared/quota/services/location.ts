/**
 * What the cursor is on in a quota file: a subject, a size, a rule/group/account name (as a
 * definition or a reference), or a key. Completion, hover and navigation all start here.
 */
import { getLocation, type JSONPath, type Node } from 'jsonc-parser';
import { nodeAtOffset } from '../../json/jsoncTree';
import type { QuotaAnalysis } from '../config';
import type { NameKind, NameOccurrence } from '../reader';

export type QuotaContext =
  | { kind: 'subject'; leafOnly: boolean; node?: Node; isKey: boolean }
  | { kind: 'size'; node: Node; owner: string }
  | { kind: 'name'; nameKind: NameKind; role: 'definition' | 'reference'; node?: Node; isKey: boolean }
  | { kind: 'forgejoVersion'; node?: Node }
  | { kind: 'other' };

const SIZE_KEYS = new Set(['limit', 'gitSize', 'lfsSize', 'size']);

/** The string node (or key node) the offset is in, if any. */
function stringNodeAt(analysis: QuotaAnalysis, offset: number): Node | undefined {
  const node = nodeAtOffset(analysis.root, offset);
  return node && node.type === 'string' && offset > node.offset && offset < node.offset + node.length ? node : undefined;
}

export function quotaContextAt(analysis: QuotaAnalysis, offset: number): QuotaContext {
  const location = getLocation(analysis.parsedText, offset);
  const path: JSONPath = location.path;
  const node = stringNodeAt(analysis, offset) ?? (location.previousNode?.type === 'string' ? location.previousNode : undefined);
  const valueNode = nodeAtOffset(analysis.root, offset);
  const isKey = location.isAtPropertyKey;
  const [top, second, third, fourth] = path;

  if (top === 'forgejoVersion' && path.length === 1 && !isKey) return { kind: 'forgejoVersion', node };
  if (top === 'rules' && third === 'subjects' && typeof fourth === 'number') return { kind: 'subject', leafOnly: false, node, isKey: false };
  if (top === 'usage' && path.length === 3 && isKey) return { kind: 'subject', leafOnly: true, node, isKey: true };
  if (top === 'groups' && third === 'rules' && typeof fourth === 'number') return { kind: 'name', nameKind: 'rule', role: 'reference', node, isKey: false };
  if (top === 'defaultGroups' && typeof second === 'number') return { kind: 'name', nameKind: 'group', role: 'reference', node, isKey: false };
  if (top === 'assignments' && path.length === 3 && typeof third === 'number') return { kind: 'name', nameKind: 'group', role: 'reference', node, isKey: false };
  if ((top === 'assignments' || top === 'usage') && path.length === 2 && isKey) return { kind: 'name', nameKind: 'account', role: 'reference', node, isKey: true };
  if (top === 'rules' && third === 'name' && !isKey) return { kind: 'name', nameKind: 'rule', role: 'definition', node, isKey: false };
  if (top === 'groups' && third === 'name' && !isKey) return { kind: 'name', nameKind: 'group', role: 'definition', node, isKey: false };
  if (top === 'accounts' && third === 'name' && !isKey) return { kind: 'name', nameKind: 'account', role: 'definition', node, isKey: false };
  if (top === 'accounts' && third === 'owners' && typeof fourth === 'number') return { kind: 'name', nameKind: 'account', role: 'reference', node, isKey: false };
  if ((top === 'repos' || top === 'packages') && third === 'owner' && !isKey) return { kind: 'name', nameKind: 'account', role: 'reference', node, isKey: false };
  if (top === 'attachments' && third === 'uploader' && !isKey) return { kind: 'name', nameKind: 'account', role: 'reference', node, isKey: false };

  const isSize =
    !isKey &&
    valueNode !== undefined &&
    (valueNode.type === 'string' || valueNode.type === 'number') &&
    ((top === 'defaultTotal' && path.length === 1) ||
      (top === 'usage' && path.length === 3) ||
      (path.length === 3 && typeof third === 'string' && SIZE_KEYS.has(third) && ['rules', 'repos', 'attachments', 'packages', 'artifacts'].includes(String(top))));
  if (isSize) return { kind: 'size', node: valueNode, owner: describeSizeOwner(analysis, path, valueNode.offset) };
  return { kind: 'other' };
}

function describeSizeOwner(analysis: QuotaAnalysis, path: JSONPath, offset: number): string {
  const [top, index, key] = path;
  if (top === 'defaultTotal') return 'defaultTotal: the limit of the built-in size:all group';
  if (top === 'usage') return `usage of ${String(index)} for ${String(key)}`;
  if (top === 'rules') {
    const layout = analysis.ruleLayout.find((r) => offset >= r.node.offset && offset < r.node.offset + r.node.length);
    return layout ? `limit of rule "${layout.rule.name}"` : 'rule limit';
  }
  return `${String(key)} of ${String(top).replace(/s$/, '')} ${String(index)}`;
}

/** The name occurrence (rule, group, account, repo) covering an offset. */
export function occurrenceAt(analysis: QuotaAnalysis, offset: number): NameOccurrence | undefined {
  return analysis.names.occurrences.find((o) => offset >= o.span.offset && offset <= o.span.offset + o.span.length);
}

export function occurrencesOf(analysis: QuotaAnalysis, kind: NameKind, name: string): NameOccurrence[] {
  return analysis.names.occurrences.filter((o) => o.kind === kind && o.name === name);
}
