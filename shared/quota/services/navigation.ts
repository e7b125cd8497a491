/** Definition, references and rename for rule, group and account names in quota files. */
import * as l10n from '@vscode/l10n';
import type { Range } from '../../diagnostics';
import type { Location } from '../../features';
import type { TextEdit } from '../../edits';
import type { QuotaAnalysis } from '../config';
import type { NameOccurrence } from '../reader';
import { occurrenceAt, occurrencesOf } from './location';

const RENAMEABLE = new Set(['rule', 'group', 'account']);

function rangeOf(analysis: QuotaAnalysis, occurrence: NameOccurrence, insideQuotes = false): Range {
  const { offset, length } = occurrence.span;
  return analysis.lines.rangeOf(insideQuotes ? { offset: offset + 1, length: Math.max(0, length - 2) } : { offset, length });
}

export function findDefinition(analysis: QuotaAnalysis, uri: string, offset: number): Location[] {
  const at = occurrenceAt(analysis, offset);
  if (!at) return [];
  return occurrencesOf(analysis, at.kind, at.name)
    .filter((o) => o.role === 'definition')
    .slice(0, 1)
    .map((o) => ({ uri, range: rangeOf(analysis, o) }));
}

export function findReferences(analysis: QuotaAnalysis, uri: string, offset: number, includeDeclaration: boolean): Location[] {
  const at = occurrenceAt(analysis, offset);
  if (!at) return [];
  return occurrencesOf(analysis, at.kind, at.name)
    .filter((o) => includeDeclaration || o.role === 'reference')
    .map((o) => ({ uri, range: rangeOf(analysis, o) }));
}

export function prepareRename(analysis: QuotaAnalysis, offset: number): { range: Range; placeholder: string } | null {
  const at = occurrenceAt(analysis, offset);
  if (!at || !RENAMEABLE.has(at.kind)) return null;
  return { range: rangeOf(analysis, at, true), placeholder: at.name };
}

export class RenameError extends Error {}

/** Why a rule, group or account cannot take a new name, one sentence per kind. */
function renameRefusal(kind: NameOccurrence['kind'], why: 'empty' | 'slash' | 'taken', newName: string): string {
  if (kind === 'rule') {
    if (why === 'empty') return l10n.t('A rule name cannot be empty');
    if (why === 'slash') return l10n.t('A rule name cannot contain "/": it is used as a URL path segment');
    return l10n.t('There is already a rule named "{0}"', newName);
  }
  if (kind === 'group') {
    if (why === 'empty') return l10n.t('A group name cannot be empty');
    if (why === 'slash') return l10n.t('A group name cannot contain "/": it is used as a URL path segment');
    return l10n.t('There is already a group named "{0}"', newName);
  }
  // An account, the only other kind renamed here: a "/" in its new name is not refused.
  if (why === 'empty') return l10n.t('A account name cannot be empty');
  return l10n.t('There is already a account named "{0}"', newName);
}

/** Renames every occurrence of the name under the cursor; the new name is JSON-escaped. */
export function rename(analysis: QuotaAnalysis, offset: number, newName: string): TextEdit[] | null {
  const at = occurrenceAt(analysis, offset);
  if (!at || !RENAMEABLE.has(at.kind)) return null;
  if (newName.trim() === '') throw new RenameError(renameRefusal(at.kind, 'empty', newName));
  if (at.kind !== 'account' && newName.includes('/')) throw new RenameError(renameRefusal(at.kind, 'slash', newName));
  if (newName !== at.name && occurrencesOf(analysis, at.kind, newName).some((o) => o.role === 'definition')) {
    throw new RenameError(renameRefusal(at.kind, 'taken', newName));
  }
  const escaped = JSON.stringify(newName).slice(1, -1);
  return occurrencesOf(analysis, at.kind, at.name).map((o) => ({ offset: o.span.offset + 1, length: Math.max(0, o.span.length - 2), newText: escaped }));
}
