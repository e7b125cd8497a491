/**
 * The table of file kinds. Each row says, for one kind of file: its name in messages, the globs that
 * recognise it by name (content sniffing is documentKind.ts's `kindFromContent`), its analyser, its
 * diagnostic codes, and what `quota-state fix` may apply to it. The CLI's `check`, `fix` and
 * `--severity`, the project configuration's code list and the language server's modes all read this
 * table; adding a kind is one row here plus its own folder.
 */
import type { Diagnostic } from './diagnostics';
import { documentedCodes, type DocumentedCode } from './diagnosticRule';
import { EMPTY_FILE } from './emptyFile';
import { DEFAULT_FILE_PATTERNS, type DocumentKind } from './documentKind';
import type { TextEdit } from './edits';
import { type GroupSource, APP_INI_CODES, createAppIniService } from './ini';
import { QUOTA_CODES, createQuotaService } from './quota';
import { STATE_CODES, type StateSchemaMode, createStateService } from './state';

const { analyze: analyzeAppIni, rules: APP_INI_RULES } = createAppIniService();

const { analyze: analyzeQuotaConfig, rules: QUOTA_DIAGNOSTIC_RULES, fixesFor: quotaFixesFor } = createQuotaService();

const { analyze: analyzeState, rules: STATE_RULES, fixesFor } = createStateService();

export interface KindAnalysisOptions {
  /** For app.ini files: where group names are known to exist (none: names are not checked). */
  groups?: GroupSource[];
  /** Schema mode of state files; default `pulumi`. */
  stateSchema?: StateSchemaMode;
}

/** One safe fix: the code it answers, its title and its offset-based edits on the current text. */
interface SafeFix {
  code: string;
  title: string;
  edits: TextEdit[];
}

/** A file's diagnostics and the first safe fix among them (in the editor's order), if any. */
interface FixStep {
  diagnostics: Diagnostic[];
  fix?: SafeFix;
}

export interface FileKind {
  kind: DocumentKind;
  /** The kind in words, for messages. */
  label: string;
  /** File-name globs that recognise it (the `quotaState.files.*` settings override them). */
  patterns: readonly string[];
  /** Every diagnostic code of the kind, with its default severity and meaning, in its rule list's order. */
  codes: readonly DocumentedCode[];
  /** The codes whose preferred quick fix `quota-state fix` applies: fixes that cannot lose data. */
  safeFixes: readonly string[];
  analyze(text: string, options?: KindAnalysisOptions): Diagnostic[];
  /** The diagnostics of `text` and the next safe fix `quota-state fix` would apply. */
  fixStep(text: string, options?: KindAnalysisOptions): FixStep;
}

const SAFE_STATE_FIXES = ['forward-reference', 'missing-reference', 'magic-mismatch', 'unknown-provider', 'duplicate-urn'];
const SAFE_QUOTA_FIXES = ['subject-alias'];

const STATE: FileKind = {
  kind: 'state',
  label: 'resource-state file',
  patterns: DEFAULT_FILE_PATTERNS.state,
  codes: documentedCodes(STATE_RULES, STATE_CODES),
  safeFixes: SAFE_STATE_FIXES,
  analyze: (text, options = {}) => analyzeState(text, { stateSchema: options.stateSchema }).diagnostics,
  fixStep(text, options = {}) {
    const analysis = analyzeState(text, { stateSchema: options.stateSchema });
    for (const diagnostic of analysis.diagnostics) {
      if (!SAFE_STATE_FIXES.includes(diagnostic.code)) continue;
      const fix = fixesFor(analysis, diagnostic).find((f) => f.preferred && f.edits.length > 0);
      if (fix) return { diagnostics: analysis.diagnostics, fix: { code: diagnostic.code, title: fix.title, edits: fix.edits } };
    }
    return { diagnostics: analysis.diagnostics };
  },
};

const QUOTA: FileKind = {
  kind: 'quota',
  label: 'quota config file',
  patterns: DEFAULT_FILE_PATTERNS.quota,
  codes: documentedCodes(QUOTA_DIAGNOSTIC_RULES, QUOTA_CODES),
  safeFixes: SAFE_QUOTA_FIXES,
  analyze: (text) => analyzeQuotaConfig(text).diagnostics,
  fixStep(text) {
    const analysis = analyzeQuotaConfig(text);
    for (const diagnostic of analysis.diagnostics) {
      if (!SAFE_QUOTA_FIXES.includes(diagnostic.code)) continue;
      const fix = quotaFixesFor(analysis, diagnostic).find((f) => f.preferred && f.edits.length > 0);
      if (fix) return { diagnostics: analysis.diagnostics, fix: { code: diagnostic.code, title: fix.title, edits: fix.edits } };
    }
    return { diagnostics: analysis.diagnostics };
  },
};

/** app.ini's fixes change what a running Forgejo does (a limit, a group): none is safe to apply unasked. */
const APP_INI: FileKind = {
  kind: 'appIni',
  label: 'Forgejo app.ini',
  patterns: DEFAULT_FILE_PATTERNS.appIni ?? ['**/app.ini'],
  codes: documentedCodes(APP_INI_RULES, APP_INI_CODES),
  safeFixes: [],
  analyze: (text, options = {}) => analyzeAppIni(text, { groups: options.groups }).diagnostics,
  fixStep: (text, options = {}) => ({ diagnostics: analyzeAppIni(text, { groups: options.groups }).diagnostics }),
};

export const FILE_KINDS: Readonly<Record<DocumentKind, FileKind>> = { state: STATE, quota: QUOTA, appIni: APP_INI };

/** Every diagnostic code of every kind, and `empty-file`, sorted: a severity override naming another code is a typo. */
export function allDiagnosticCodes(): string[] {
  return [...new Set([...Object.values(FILE_KINDS).flatMap((kind) => kind.codes.map((c) => c.code)), EMPTY_FILE.code])].sort();
}
