/**
 * Hover over a urn: the resource it names (type, id, custom, protect, delete, the parent chain and
 * how many records depend on it), and over a field summary: every field, its count and its writer.
 */
import * as l10n from '@vscode/l10n';
import { markdown, markdownLines, type HoverResult } from '../../features';
import type { Diagnostic, Position, Range } from '../../diagnostics';
import { lazyTable } from '../../text/lazyTable';
import { fieldWriter } from '../passes/fields';
import { isObject } from '../model/structure';
import { resourceName, type StateDocument } from './context';

/** Parent chains are shown up to this many ancestors. */
const PARENT_CHAIN_LIMIT = 20;

export function stateHover({ snapshot, navigation }: StateDocument, offset: number): HoverResult | null {
  const occurrence = navigation.occurrenceAt(offset);
  if (!occurrence) return null;
  const lines: string[] = [];
  const definition = navigation.definingRecords(occurrence.urn)[0];
  const resource = definition !== undefined ? snapshot.structure.resources[definition] : undefined;
  const record = resource && isObject(resource.value) ? resource.value : undefined;
  lines.push(`**${resourceName(occurrence.urn)}**`, '', `\`${occurrence.urn}\``, '');
  if (!record) {
    lines.push(occurrence.kind === 'alias' ? l10n.t('Alias: a previous urn; it need not exist in this file.') : l10n.t('Not defined in this file.'));
  } else {
    if (typeof record.type === 'string') lines.push(`- type: \`${record.type}\``);
    if (typeof record.id === 'string' && record.id !== '') lines.push(`- id: \`${record.id}\``);
    lines.push(`- custom: ${record.custom === true}`);
    if (record.protect === true) lines.push('- protect: true');
    if (record.delete === true) lines.push(l10n.t('- {0} (pending deletion)', 'delete: true'));
    const chain: string[] = [];
    const visited = new Set([occurrence.urn]);
    let parent = typeof record.parent === 'string' ? record.parent : undefined;
    while (parent && !visited.has(parent) && chain.length < PARENT_CHAIN_LIMIT) {
      visited.add(parent);
      chain.push(resourceName(parent));
      const next = navigation.definingRecords(parent)[0];
      const value = next !== undefined ? snapshot.structure.resources[next].value : undefined;
      parent = isObject(value) && typeof value.parent === 'string' ? value.parent : undefined;
    }
    if (chain.length) lines.push(l10n.t('- parent chain: {0}', chain.join(' → ')));
    lines.push(l10n.t('- dependents: {0}', navigation.dependentCount(occurrence.urn)));
  }
  return { contents: markdownLines(lines), range: snapshot.lines.rangeOf(occurrence.span) };
}

const SUMMARY_TITLES: Readonly<Record<string, string>> = lazyTable({
  'newer-engine-property': () => l10n.t("Fields Pulumi declares that the seed's v3 record schema lacks (Pulumi reads them)"),
  'legacy-property': () => l10n.t('Fields older Pulumi engines wrote and Pulumi now ignores'),
});

/** The hover of a `newer-engine-property` / `legacy-property` summary diagnostic under `offset`. */
export function fieldSummaryHover({ snapshot }: Pick<StateDocument, 'snapshot'>, diagnostics: readonly Diagnostic[] | undefined, offset: number): HoverResult | null {
  const position = snapshot.lines.positionAt(offset);
  const diagnostic = diagnostics?.find((d) => SUMMARY_TITLES[d.code] && contains(d.range, position));
  const fields = (diagnostic?.data as { fields?: unknown } | undefined)?.fields;
  if (!diagnostic || !isObject(fields)) return null;
  const rows = Object.entries(fields).map(([field, count]) => `| \`${field}\` | ${String(count)} | ${fieldWriter(field) ?? ''} |`);
  const value = [`**${SUMMARY_TITLES[diagnostic.code]}**`, '', l10n.t('| field | count | written by |'), '| --- | ---: | --- |', ...rows].join('\n');
  return { contents: markdown(value), range: diagnostic.range };
}

function contains(range: Range, position: Position): boolean {
  const after = position.line > range.start.line || (position.line === range.start.line && position.character >= range.start.character);
  const before = position.line < range.end.line || (position.line === range.end.line && position.character <= range.end.character);
  return after && before;
}
