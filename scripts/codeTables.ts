/**
 * What package.json and the docs pages say about diagnostic codes, generated from the table of file kinds
 * (each code's doc and fix from its rule module, its severity from its registry), so a code is
 * documented once, in its module.
 * `scripts/sync-manifest-codes.mjs` writes these into the files; test/package/codeTables.test.ts fails
 * when the files drift from the modules.
 */
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import type { DocumentedCode } from '../shared/diagnosticRule';
import { FILE_KINDS } from '../shared/fileKinds';
import { defaultSeverity, type StateCode } from '../shared/state/codes';

/** One code as the tables show it; state codes also give the `seed-v3` schema mode's severity. */
interface CodeRow extends DocumentedCode {
  seedV3Severity?: string;
}

type TableKind = 'state' | 'quota' | 'app.ini';

const stateRows = (): CodeRow[] => FILE_KINDS.state.codes.map((code) => ({ ...code, seedV3Severity: defaultSeverity(code.code as StateCode, 'seed-v3') }));

/** Each kind with the docs page (from the repository root) that tables its codes. */
const KINDS: ReadonlyArray<{ kind: TableKind; label: string; page: string; rows: () => readonly CodeRow[] }> = [
  { kind: 'state', label: 'State', page: 'docs/state-files.md', rows: stateRows },
  { kind: 'quota', label: 'Quota', page: 'docs/quota-files.md', rows: () => FILE_KINDS.quota.codes },
  { kind: 'app.ini', label: 'app.ini', page: 'docs/app-ini.md', rows: () => FILE_KINDS.appIni.codes },
];

/** The docs pages holding code tables, each between `<!-- codes:<kind> -->` and `<!-- /codes:<kind> -->`. */
export const CODE_TABLE_PAGES: readonly string[] = [...new Set(KINDS.map((entry) => entry.page))];

/** The package.nls.json key of a code's description in the severity setting. */
export const codeDescriptionKey = (code: string) => `config.diagnostics.severity.code.${code}`;

/** Every code with what it means per file kind, in package.nls.json's English (keys of `codeDescriptionKey`). */
export function codeDescriptions(): Record<string, string> {
  const described = new Map<string, string[]>();
  for (const { label, rows } of KINDS) {
    for (const row of rows()) {
      const lines = described.get(row.code) ?? [];
      lines.push(`${label}: ${row.doc}`);
      described.set(row.code, lines);
    }
  }
  return Object.fromEntries([...described.keys()].sort().map((code) => [codeDescriptionKey(code), described.get(code)!.join(' ')]));
}

/**
 * `propertyNames` of the `quotaState.diagnostics.severity` setting: every code, its meaning a
 * package.nls.json key (`codeDescriptions`), so it can be translated; the codes themselves are names and are not.
 */
export function severitySettingPropertyNames(): { enum: string[]; enumDescriptions: string[] } {
  const names = Object.keys(codeDescriptions()).map((key) => key.slice(codeDescriptionKey('').length));
  return { enum: names, enumDescriptions: names.map((name) => `%${codeDescriptionKey(name)}%`) };
}

/** package.nls.json's text with the code descriptions regenerated (other keys kept, in their order). */
export function withNlsCodeDescriptions(text: string): string {
  const nls = JSON.parse(text) as Record<string, string>;
  const codes = codeDescriptions();
  const kept = Object.entries(nls).filter(([key]) => !key.startsWith(codeDescriptionKey('')));
  return `${JSON.stringify(Object.fromEntries([...kept, ...Object.entries(codes)]), null, 2)}\n`;
}

const SEVERITY_SETTING = 'quotaState.diagnostics.severity';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The docs table of one file kind's codes. */
function codeTable(kind: TableKind): string[] {
  const { rows } = KINDS.find((entry) => entry.kind === kind)!;
  if (kind === 'state') {
    return [
      '| code | `pulumi` | `seed-v3` | quick fix | when |',
      '|---|---|---|---|---|',
      ...rows().map((row) => `| \`${row.code}\` | ${row.severity} | ${row.seedV3Severity} | ${row.hasFix ? 'yes' : ''} | ${cell(row.doc)} |`),
    ];
  }
  return ['| code | severity | quick fix | when |', '|---|---|---|---|', ...rows().map((row) => `| \`${row.code}\` | ${row.severity} | ${row.hasFix ? 'yes' : ''} | ${cell(row.doc)} |`)];
}

/**
 * `text`, the content of the docs page `page` (one of `CODE_TABLE_PAGES`), with the lines between
 * `<!-- codes:<kind> -->` and `<!-- /codes:<kind> -->` replaced by the generated table, for each kind that page tables.
 */
export function withCodeTables(page: string, text: string): string {
  let result = text;
  for (const { kind } of KINDS.filter((entry) => entry.page === page)) {
    const pattern = new RegExp(`^([ \\t]*)<!-- codes:${kind} -->\\n[\\s\\S]*?^[ \\t]*<!-- /codes:${kind} -->$`, 'm');
    const match = pattern.exec(result);
    if (!match) throw new Error(`${page} has no <!-- codes:${kind} --> … <!-- /codes:${kind} --> block`);
    const indent = match[1];
    const block = [`<!-- codes:${kind} -->`, ...codeTable(kind), `<!-- /codes:${kind} -->`].map((line) => indent + line).join('\n');
    result = result.slice(0, match.index) + block + result.slice(match.index + match[0].length);
  }
  return result;
}

/** package.json's text with the severity setting's code list regenerated, the rest of the file untouched. */
export function withManifestCodes(text: string): string {
  const manifest = JSON.parse(text) as { contributes: { configuration: unknown } };
  const configuration = manifest.contributes.configuration;
  const prefix: JSONPath = Array.isArray(configuration)
    ? ['contributes', 'configuration', configuration.findIndex((c: { properties?: object }) => c.properties && SEVERITY_SETTING in c.properties)]
    : ['contributes', 'configuration'];
  const path: JSONPath = [...prefix, 'properties', SEVERITY_SETTING, 'propertyNames'];
  if (prefix.includes(-1)) throw new Error(`package.json has no ${SEVERITY_SETTING} setting`);
  return applyEdits(text, modify(text, path, severitySettingPropertyNames(), { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } }));
}
