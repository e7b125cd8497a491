/**
 * Editor features for `app.ini` quota settings, in LSP shapes but editor-independent: hover
 * (what a key means, what TOTAL is in bytes, where a group is defined), completion (keys of the
 * quota sections, group names in DEFAULT_GROUPS) and quick fixes (each code's rule computes them
 * from the analysis and the diagnostic's `data`).
 */
import * as l10n from '@vscode/l10n';
import { fixRequestOf, type Fix, type FixableDiagnostic } from '../edits';
import { markdown, markdownLines, type CompletionEntry, type HoverResult } from '../features';
import { describeSize, formatSize } from '../quota';
import type { AppIniAnalysis } from './appIni';
import { APP_INI_CODES } from './codes';
import { andList, orList } from '../text/lists';
import { newerServerTotal, olderServerTotal } from './goValues';
import { DEFAULT_SECTION, type IniEntry } from './parse';
import { QUOTA_DEFAULT_SECTION, QUOTA_KEYS, QUOTA_SECTION } from './quotaSettings';
import { appIniFixProvider } from './rules';

const contains = (span: { offset: number; length: number }, offset: number) => offset >= span.offset && offset <= span.offset + span.length;

/** Decimal form of a byte count, as an admin would write it in app.ini (`10 GB`). */
function decimalSize(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
  let unit = 0;
  let magnitude = bytes;
  while (magnitude >= 1000 && unit < units.length - 1) {
    magnitude /= 1000;
    unit++;
  }
  return `${Math.round(magnitude * 100) / 100} ${units[unit]}`;
}

function totalHover(entry: IniEntry, defaultSectionExists: boolean): string[] {
  const newer = newerServerTotal(entry.value);
  const older = defaultSectionExists ? olderServerTotal(entry.value) : undefined;
  const lines: string[] = [];
  if (newer.bytes === -1n) lines.push(newer.reason ? l10n.t('**unlimited (-1)** on newer servers: {0}', newer.reason) : l10n.t('**unlimited (-1)**'));
  else {
    const bytes = Number(newer.bytes);
    lines.push(l10n.t('**{0} bytes** — {1} = {2}', String(newer.bytes), decimalSize(bytes), formatSize(bytes)));
  }
  lines.push('', older === undefined ? l10n.t('Older servers (plain integer): ignored, so unlimited (-1).') : l10n.t('Older servers (plain integer): {0}.', describeSize(Number(older))));
  return lines;
}

export function appIniHover(analysis: AppIniAnalysis, offset: number): HoverResult | null {
  const entry = analysis.document.entries.find((e) => contains(e.lineSpan, offset) && (e.section === QUOTA_SECTION || e.section === QUOTA_DEFAULT_SECTION));
  if (!entry) return null;
  const range = (span: { offset: number; length: number }) => analysis.lines.rangeOf(span);
  if (entry.comment && contains(entry.comment, offset)) {
    return { contents: markdownLines([l10n.t('Inline comment: Forgejo (go-ini) cuts the value at the first `;` or `#`, so this text is not part of the value.')]), range: range(entry.comment) };
  }
  if (contains(entry.keySpan, offset)) {
    const description = QUOTA_KEYS[entry.section][entry.key];
    if (!description) return null;
    return { contents: markdownLines([`**[${entry.section}] ${entry.key}**`, '', description]), range: range(entry.keySpan) };
  }
  if (!contains(entry.valueSpan, offset)) return null;
  if (entry.key === 'TOTAL') {
    const defaultSectionExists = analysis.document.headers.some((h) => h.name === QUOTA_DEFAULT_SECTION);
    return { contents: markdownLines(totalHover(entry, defaultSectionExists)), range: range(entry.valueSpan) };
  }
  if (entry.key === 'DEFAULT_GROUPS' && entry.section === QUOTA_SECTION) {
    const item = analysis.defaultGroupItems.find((i) => contains(i.span, offset));
    if (!item) return null;
    const found = analysis.groupSources.filter((source) => source.names.includes(item.name)).map((source) => source.label);
    const missing = analysis.groupSources.filter((source) => !source.names.includes(item.name)).map((source) => source.label);
    const lines = [l10n.t('Default group **{0}**', item.name), ''];
    if (analysis.groupSources.length === 0) lines.push(l10n.t('Could not check whether this group exists: no quota file in the workspace and not signed in to a server as a site admin.'));
    if (found.length) lines.push(l10n.t('Defined in {0}.', andList(found)));
    if (missing.length) lines.push(l10n.t('Not defined in {0}: Forgejo skips it there.', orList(missing)));
    return { contents: markdownLines(lines), range: range(item.span) };
  }
  return null;
}

/** The section a line belongs to: the last header before `offset`. */
function sectionAt(analysis: AppIniAnalysis, offset: number): string {
  let section = DEFAULT_SECTION;
  for (const header of analysis.document.headers) {
    if (header.span.offset >= offset) break;
    section = header.name;
  }
  return section;
}

export function appIniCompletion(analysis: AppIniAnalysis, offset: number): CompletionEntry[] {
  const text = analysis.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const position = analysis.lines.positionAt(offset);
  if (/^\s*\[[^\]]*$/.test(before)) {
    const nameStart = lineStart + before.indexOf('[') + 1;
    const lineEnd = text.indexOf('\n', offset) === -1 ? text.length : text.indexOf('\n', offset);
    const closing = text.slice(offset, lineEnd).includes(']');
    return [QUOTA_SECTION, QUOTA_DEFAULT_SECTION].map((name) => ({
      label: name,
      kind: 'module' as const,
      textEdit: { range: { start: analysis.lines.positionAt(nameStart), end: position }, newText: closing ? name : `${name}]` },
    }));
  }
  const section = sectionAt(analysis, offset);
  const keys = QUOTA_KEYS[section];
  if (!keys) return [];
  const delimiter = before.search(/[=:]/);
  if (delimiter === -1) {
    if (/^\s*[;#]/.test(before)) return [];
    const present = new Set(analysis.document.entries.filter((e) => e.section === section).map((e) => e.key));
    const wordStart = lineStart + (before.length - before.trimStart().length);
    return Object.entries(keys)
      .filter(([key]) => !present.has(key) || text.slice(wordStart, offset).length > 0)
      .map(([key, description]) => ({
        label: key,
        kind: 'property' as const,
        documentation: markdown(description),
        textEdit: { range: { start: analysis.lines.positionAt(wordStart), end: position }, newText: `${key} = ` },
      }));
  }
  const key = before.slice(0, delimiter).trim();
  if (section !== QUOTA_SECTION || key !== 'DEFAULT_GROUPS') return [];
  const valueText = before.slice(delimiter + 1);
  if (/[;#]/.test(valueText)) return [];
  const itemStart = offset - (valueText.length - Math.max(valueText.lastIndexOf(',') + 1, 0));
  const typed = text.slice(itemStart, offset);
  const wordStart = itemStart + (typed.length - typed.trimStart().length);
  const listed = new Set(analysis.defaultGroupItems.map((item) => item.name));
  const names = [...new Set(analysis.groupSources.flatMap((source) => source.names))].sort();
  return names
    .filter((name) => !listed.has(name))
    .map((name) => ({
      label: name,
      kind: 'value' as const,
      detail: l10n.t(
        'group in {0}',
        analysis.groupSources
          .filter((s) => s.names.includes(name))
          .map((s) => s.label)
          .join(', '),
      ),
      textEdit: { range: { start: analysis.lines.positionAt(wordStart), end: position }, newText: name },
    }));
}

/** The quick fixes of one diagnostic, from its code's rule, as offset-based fixes of the analysed text. */
export function appIniFixesFor(analysis: AppIniAnalysis, diagnostic: FixableDiagnostic): Fix[] {
  const request = fixRequestOf(diagnostic, APP_INI_CODES, analysis.lines);
  const provider = request && appIniFixProvider(request.code);
  return provider ? provider(analysis, request) : [];
}

/** Every fix of `diagnostics`, each with the diagnostic it answers. */
export function appIniCodeActions<D extends FixableDiagnostic>(analysis: AppIniAnalysis, diagnostics: readonly D[]): Array<{ fix: Fix; diagnostic: D }> {
  return diagnostics.flatMap((diagnostic) => appIniFixesFor(analysis, diagnostic).map((fix) => ({ fix, diagnostic })));
}
