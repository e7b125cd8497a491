/**
 * The one test-utils module for in-process service tests of both file kinds: a `|` in the text
 * marks the cursor, `// want "message" fix="title"` markers state the diagnostics a line must get
 * and the fix to apply, and `applyEdits` is the same function the CLI's fix-all uses.
 */
import { strict as assert } from 'node:assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../shared/diagnostics';
import { analyzeQuotaConfig, type QuotaAnalysis } from '../../shared/quota/config';
import { analyzeState, type StateAnalysisOptions } from '../../shared/state/analyze';
import { NavigationIndex } from '../../shared/state/navigation/navigationIndex';
import type { StateDocument } from '../../shared/state/services/context';
import type { StateAnalysis } from '../../shared/state/analyze';

export { applyEdits } from '../../shared/edits';

/** The text without its one `|` and the cursor's offset there. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset === -1 || marked.indexOf('|', offset + 1) !== -1) throw new Error('mark the cursor with exactly one |');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** A state document as the services read it (the analysis doubles as the snapshot). */
export function stateDocument(text: string, options: StateAnalysisOptions = {}): StateDocument & { analysis: StateAnalysis } {
  const analysis = analyzeState(text, options);
  return { snapshot: analysis, navigation: new NavigationIndex(analysis), analysis };
}

export function quotaDocument(text: string): QuotaAnalysis {
  return analyzeQuotaConfig(text);
}

export interface Want {
  /** 0-based line the diagnostic starts on. */
  line: number;
  /** Text the diagnostic's message contains. */
  message: string;
  /** Title of the quick fix to apply, when the marker names one. */
  fix?: string;
}

const WANT = /[ \t]*\/\/ want "((?:[^"\\]|\\.)*)"(?: fix="((?:[^"\\]|\\.)*)")?[ \t]*$/;

/**
 * Reads and removes the `// want` markers at line ends (the text left is what is analysed, so a
 * state file stays plain JSON). A marker alone on its line refers to the line below it and is
 * removed with its line.
 */
export function readWants(marked: string): { text: string; wants: Want[] } {
  const wants: Want[] = [];
  const lines: string[] = [];
  for (const line of marked.split('\n')) {
    const match = WANT.exec(line);
    if (!match) {
      lines.push(line);
      continue;
    }
    const unescape = (s: string) => JSON.parse(`"${s}"`) as string;
    const rest = line.slice(0, match.index);
    const want: Want = { line: lines.length, message: unescape(match[1]), ...(match[2] !== undefined ? { fix: unescape(match[2]) } : {}) };
    wants.push(want);
    if (rest.trim() !== '') lines.push(rest);
  }
  return { text: lines.join('\n'), wants };
}

/**
 * Pairs each diagnostic with the want on its line whose message it contains, and fails on a
 * diagnostic no want names or a want no diagnostic meets. `what` names the diagnostics in failures.
 */
export function assertWantedDiagnostics(diagnostics: readonly Diagnostic[], wants: readonly Want[], what = 'diagnostics'): void {
  const open = [...wants];
  for (const diagnostic of diagnostics) {
    const index = open.findIndex((want) => want.line === diagnostic.range.start.line && diagnostic.message.includes(want.message));
    assert.ok(index !== -1, `unexpected ${diagnostic.code} on line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
    open.splice(index, 1);
  }
  assert.deepEqual(
    open.map((want) => `line ${want.line + 1}: ${want.message}`),
    [],
    `wanted ${what} that did not appear`,
  );
}

const FIX_GOLDEN_DIRECTORY = join(__dirname, '..', 'fixtures', 'fixes');
const FIX_GOLDEN_KINDS = [
  { extension: '.state.json', analyse: (text: string) => stateDocument(text).analysis },
  { extension: '.quota.jsonc', analyse: quotaDocument },
] as const;

/** The quick-fix golden inputs (test/fixtures/fixes), each with its fixed file and how it is analysed. */
export function fixGoldenInputs(): Array<{ name: string; file: string; fixed: string; kind: (typeof FIX_GOLDEN_KINDS)[number] }> {
  return readdirSync(FIX_GOLDEN_DIRECTORY)
    .filter((file) => !file.includes('.fixed.'))
    .flatMap((file) => {
      const kind = FIX_GOLDEN_KINDS.find((k) => file.endsWith(k.extension));
      if (!kind) return [];
      const name = file.slice(0, -kind.extension.length);
      return [{ name, file: join(FIX_GOLDEN_DIRECTORY, file), fixed: join(FIX_GOLDEN_DIRECTORY, `${name}.fixed${kind.extension}`), kind }];
    });
}
