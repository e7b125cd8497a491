/**
 * Quick fixes for quota files, one provider per diagnostic code (the registry in ../codes.ts names
 * it), each reading the diagnostic's `data`: did-you-mean for unknown subjects, rules, groups and
 * accounts, the canonical spelling of an alias, a stub for a missing rule or group, the removal of
 * an unused rule.
 */
import * as l10n from '@vscode/l10n';
import { modify, type Edit, type JSONPath } from 'jsonc-parser';
import type { Fix, FixRequest, TextEdit } from '../edits';
import { propertyValueNode } from '../json/jsoncTree';
import { detectFormatting } from '../json/indentation';
import type { QuotaAnalysis } from './analysis';

/** Reads one diagnostic's `data` and offers its fixes. */
export type QuotaFixProvider = (analysis: QuotaAnalysis, request: FixRequest) => Fix[];

interface NameData {
  name?: string;
  value?: string;
  canonical?: string;
  suggestions?: string[];
}

const nameData = (request: FixRequest) => request.data as NameData;

function toTextEdits(edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
}

function replaceString({ span }: FixRequest, value: string): TextEdit[] {
  return [{ ...span, newText: JSON.stringify(value) }];
}

/** Appends `value` to the array at `key` (creating the array when missing), formatted like the file. */
function appendTo(analysis: QuotaAnalysis, key: string, value: unknown): TextEdit[] {
  const array = analysis.root ? propertyValueNode(analysis.root, key) : undefined;
  const length = array?.type === 'array' ? (array.children?.length ?? 0) : -1;
  const path: JSONPath = length >= 0 ? [key, length] : [key];
  const edits = modify(analysis.text, path, length >= 0 ? value : [value], {
    formattingOptions: detectFormatting(analysis.text),
    isArrayInsertion: length >= 0,
  });
  return toTextEdits(edits);
}

/** One "Change to …" fix per suggestion; the first is preferred when `preferFirst`. */
function suggestionFixes(request: FixRequest, title: (name: string) => string, preferFirst = false): Fix[] {
  return (nameData(request).suggestions ?? []).map((name, i) => ({ title: title(name), edits: replaceString(request, name), preferred: preferFirst && i === 0 }));
}

export function unknownSubjectFixes(_analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  return suggestionFixes(request, (subject) => l10n.t('Change to "{0}"', subject), true);
}

export function canonicalSubjectFix(_analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  const { canonical } = nameData(request);
  return canonical ? [{ title: l10n.t('Use the canonical spelling "{0}"', canonical), edits: replaceString(request, canonical), preferred: true }] : [];
}

export function unknownRuleFixes(analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  const { name } = nameData(request);
  const fixes = suggestionFixes(request, (rule) => l10n.t('Change to rule "{0}"', rule));
  // jsonc-parser's edits re-read (and reformat around) content the analysis refused to read.
  if (name && !analysis.nestingLimited) fixes.push({ title: l10n.t('Create rule "{0}"', name), edits: appendTo(analysis, 'rules', { name, limit: -1, subjects: ['size:all'] }), preferred: false });
  return fixes;
}

export function unknownGroupFixes(analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  const { name } = nameData(request);
  const fixes = suggestionFixes(request, (group) => l10n.t('Change to group "{0}"', group));
  if (name && !analysis.nestingLimited) fixes.push({ title: l10n.t('Create group "{0}"', name), edits: appendTo(analysis, 'groups', { name, rules: [] }), preferred: false });
  return fixes;
}

export function unknownNameFixes(_analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  return suggestionFixes(request, (name) => l10n.t('Change to "{0}"', name));
}

export function removeUnusedRuleFix(analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  const { name } = nameData(request);
  const index = analysis.model.rules.findIndex((r) => r.name === name);
  const rulesNode = analysis.root ? propertyValueNode(analysis.root, 'rules') : undefined;
  // The model skips nameless rules, so find the array position by the name node's value.
  const position = rulesNode?.children?.findIndex((child) => propertyValueNode(child, 'name')?.value === name);
  if (index === -1 || position === undefined || position < 0 || analysis.nestingLimited) return [];
  const edits = modify(analysis.text, ['rules', position], undefined, { formattingOptions: detectFormatting(analysis.text) });
  return [{ title: l10n.t('Remove unused rule "{0}"', String(name)), edits: toTextEdits(edits), preferred: false }];
}

/** `forgejo-version-mismatch`: declare the connected server's version instead. */
export function serverVersionFix(_analysis: QuotaAnalysis, request: FixRequest): Fix[] {
  const { serverVersion } = request.data as { serverVersion?: string };
  return serverVersion ? [{ title: l10n.t("Use the connected server's version {0}", serverVersion), edits: replaceString(request, serverVersion), preferred: false }] : [];
}
