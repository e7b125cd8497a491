/**
 * Run as a child process by nls.test.ts (so no test shares its @vscode/l10n): gives the core the
 * bundle at `process.argv[2]`, then prints, as JSON, every person-facing string the core produces
 * for the fixtures — diagnostics and their related information, quick-fix titles, lenses, hovers,
 * inlay hints and surgery reports — each with where it came from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { analyzeAppIni, type GroupSource } from '../../shared/ini/appIni';
import { appIniCodeActions, appIniHover } from '../../shared/ini/services';
import { useL10nBundle } from '../../shared/l10n';
import { analyzeQuotaConfig } from '../../shared/quota/config';
import { forgejoProfile, resolveForgejoProfile, type ForgejoProfile } from '../../shared/quota/forgejoVersion';
import { quotaCodeActions } from '../../shared/quota/services/codeActions';
import { quotaHover } from '../../shared/quota/services/hover';
import { previewAccounts, previewCodeLenses, previewInlayHints } from '../../shared/quota/services/previews';
import { versionMismatchDiagnostic } from '../../shared/quota/rules/forgejoVersionMismatch';
import { analyzeState } from '../../shared/state/analyze';
import { NavigationIndex } from '../../shared/state/navigation/navigationIndex';
import { stateCodeActions } from '../../shared/state/services/codeActions';
import { stateHover } from '../../shared/state/services/hover';
import { stateCodeLenses } from '../../shared/state/services/lenses';
import { describeReport, reportOf } from '../../shared/state/services/surgery';
import { runSurgery } from '../../shared/state/surgery';
import type { Diagnostic } from '../../shared/diagnostics';

/** One string and where it came from; `whole`: the string is a message of its own (not a hover mixing words and data). */
export interface Probed {
  where: string;
  text: string;
  whole: boolean;
}

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures');

function files(dir: string, matches: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path, matches) : matches(entry.name) ? [path] : [];
  });
}

const found: Probed[] = [];
const note = (where: string, text: string, whole = true) => found.push({ where, text, whole });
const noteDiagnostics = (where: string, diagnostics: Diagnostic[]) => {
  for (const d of diagnostics) {
    note(`${where}: ${d.code}`, d.message);
    for (const related of d.relatedInformation ?? []) note(`${where}: ${d.code} (related)`, related.message);
  }
};
const hoverText = (hover: { contents: unknown } | null) => (hover && typeof hover.contents === 'object' ? String((hover.contents as { value?: unknown }).value ?? '') : '');
/** Offsets to hover at: every tenth character of a small file (enough to land on every name). */
const offsets = (text: string) => (text.length > 50_000 ? [] : Array.from({ length: Math.ceil(text.length / 10) }, (_, i) => i * 10));

function probeState(path: string): void {
  const where = relative(ROOT, path);
  const text = readFileSync(path, 'utf8');
  for (const stateSchema of ['pulumi', 'seed-v3'] as const) {
    const analysis = analyzeState(text, { stateSchema });
    noteDiagnostics(`${where} [${stateSchema}]`, analysis.diagnostics);
    for (const { fix } of stateCodeActions(analysis, analysis.diagnostics)) note(`${where}: quick fix`, fix.title);
  }
  const snapshot = analyzeState(text);
  const document = { snapshot, navigation: new NavigationIndex(snapshot) };
  for (const lens of stateCodeLenses(document, 'file:///probe', { showDependents: 'show', removeWithDependents: 'remove' })) note(`${where}: lens`, lens.command!.title);
  for (const offset of offsets(text)) {
    const hover = hoverText(stateHover(document, offset));
    if (hover) note(`${where}: hover at ${offset}`, hover, false);
  }
  const first = snapshot.structure.resources.find((r) => r.urn)?.urn;
  for (const call of [{ operation: 'repair' as const }, { operation: 'remove' as const, targets: first ? [first] : [] }, { operation: 'protect' as const, all: true }]) {
    const { source } = runSurgery(text, call);
    note(`${where}: ${call.operation}`, describeReport(reportOf(source)));
  }
}

function probeQuota(path: string): void {
  const where = relative(ROOT, path);
  const text = readFileSync(path, 'utf8');
  const analysis = analyzeQuotaConfig(text);
  const mismatch = versionMismatchDiagnostic(analysis, '11.0.3', 'https://forge.example');
  const diagnostics = mismatch ? [...analysis.diagnostics, mismatch] : analysis.diagnostics;
  noteDiagnostics(where, diagnostics);
  for (const { fix } of quotaCodeActions(analysis, diagnostics)) note(`${where}: quick fix`, fix.title);
  for (const version of ['11.0.3', '15.0.9']) {
    const forgejo = resolveForgejoProfile([{ source: 'setting', version }]);
    const accounts = previewAccounts(analysis, undefined, forgejo);
    for (const lens of previewCodeLenses(analysis, accounts)) note(`${where}: lens`, lens.command!.title);
    for (const hint of previewInlayHints(analysis, accounts)) note(`${where}: inlay hint`, String(hint.tooltip));
    for (const offset of offsets(text)) {
      const hover = hoverText(quotaHover(analysis, offset, accounts, forgejo));
      if (hover) note(`${where}: hover at ${offset}`, hover, false);
    }
  }
}

function probeIni(path: string, groups: GroupSource[]): void {
  const where = relative(ROOT, path);
  const text = readFileSync(path, 'utf8');
  const profiles: Array<ForgejoProfile | undefined> = [undefined, (forgejoProfile('11.0.3') as { profile: ForgejoProfile }).profile];
  for (const forgejo of profiles) {
    const analysis = analyzeAppIni(text, { groups, ...(forgejo ? { forgejo } : {}) });
    noteDiagnostics(where, analysis.diagnostics);
    for (const { fix } of appIniCodeActions(analysis, analysis.diagnostics)) note(`${where}: quick fix`, fix.title);
    for (const offset of offsets(text)) {
      const hover = hoverText(appIniHover(analysis, offset));
      if (hover) note(`${where}: hover at ${offset}`, hover, false);
    }
  }
}

const bundle = process.argv[2] ? (JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, string>) : undefined;
useL10nBundle(bundle);
for (const path of [...files(join(FIXTURES, 'state'), (n) => n.endsWith('.json') && !n.endsWith('.expect.json')), ...files(join(FIXTURES, 'pulumi-diff'), (n) => n.endsWith('.json'))]) {
  probeState(path);
}
for (const path of [...files(FIXTURES, (n) => /\.quota\.jsonc?$/.test(n)), ...files(join(ROOT, 'examples'), (n) => /\.quota\.jsonc?$/.test(n))]) probeQuota(path);
const groups = (JSON.parse(readFileSync(join(FIXTURES, 'ini', 'groups.json'), 'utf8')) as { sources: GroupSource[] }).sources;
for (const path of files(join(FIXTURES, 'ini'), (n) => n.endsWith('.ini'))) probeIni(path, groups);
process.stdout.write(JSON.stringify(found));
