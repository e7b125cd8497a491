/**
 * What the cursor is on in a quota file: a subject, a size, a rule/group/account name (as a
 * definition or a reference), or a key. Completion, hover and navigation all start here.
 */
import * as l10n from '@vscode/l10n';
import { getLocation, type JSONPath, type Node } from 'jsonc-parser';
import { nodeAtOffset } from '../../json/jsoncTree';
import type { QuotaAnalysis } from '../config';
import type { NameKind, NameOccurrence } from '../reader';

export type QuotaContext =
  | { kind: 'subject'; leafOnly: boolean; node?: Node; isKey: boolean }
  /** `description`: what the size is of, as a sentence (`The limit of rule "free".`). */
  | { kind: 'size'; node: Node; description: string }
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
  if (isSize) return { kind: 'size', node: valueNode, description: describeSizeOwner(analysis, path, valueNode.offset) };
  return { kind: 'other' };
}

function describeSizeOwner(analysis: QuotaAnalysis, path: JSONPath, offset: number): string {
  const [top, index, key] = path;
  if (top === 'defaultTotal') return l10n.t('The defaultTotal: the limit of the built-in size:all group.');
  if (top === 'usage') return l10n.t('The usage of {0} for {1}.', String(index), String(key));
  if (top === 'rules') {
    const layout = analysis.ruleLayout.find((r) => offset >= r.node.offset && offset < r.node.offset + r.node.length);
    return layout ? l10n.t('The limit of rule "{0}".', layout.rule.name) : l10n.t('The rule limit.');
  }
  switch (top) {
    case 'repos':
      return l10n.t('The {0} of repo {1}.', String(key), String(index));
    case 'attachments':
      return l10n.t('The {0} of attachment {1}.', String(key), String(index));
    case 'packages':
      return l10n.t('The {0} of package {1}.', String(key), String(index));
    default:
      return l10n.t('The {0} of artifact {1}.', String(key), String(index));
  }
}

/** The name occurrence (rule, group, account, repo) covering an offset. */
export function occurrenceAt(analysis: QuotaAnalysis, offset: number): NameOccurrence | undefined {
  return analysis.names.occurrences.find((o) => offset >= o.span.offset && offset <= o.span.offset + o.span.length);
}

export function occurrencesOf(analysis: QuotaAnalysis, kind: NameKind, name: string): NameOccurrence[] {
  return analysis.names.occurrences.filter((o) => o.kind === kind && o.name === name);
}
