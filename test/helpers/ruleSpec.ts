/**
 * Spec tests of one diagnostic code's module (`shared/<kind>/rules/<code>.test.ts`): each case is a
 * file with `// want "message"` at the end of every line that must get the code, and nothing else of
 * that code (a case without wants is a file the code must leave alone). A `fix="title"` on a want
 * names a quick fix to apply, and the case's `fixed` is the text those fixes must give; the code must
 * then be gone from the lines it was fixed on.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic } from '../../shared/diagnostics';
import type { Fix } from '../../shared/edits';
import { appIniFixesFor } from '../../shared/ini/services';
import { analyzeAppIni, type AppIniOptions } from '../../shared/ini/appIni';
import { versionMismatchDiagnostic, type ConnectedServer } from '../../shared/quota/rules/forgejoVersionMismatch';
import { forgejoProfile } from '../../shared/quota/forgejoVersion';
import { quotaFixesFor } from '../../shared/quota/services/codeActions';
import type { StateAnalysisOptions } from '../../shared/state/analyze';
import { fixesFor } from '../../shared/state/services/codeActions';
import { applyEdits, assertWantedDiagnostics, quotaDocument, readWants, stateDocument, type Want } from './services';

/** How one file kind is analysed and fixed, for its rules' specs. */
export interface RuleSpecKind<Options> {
  readonly name: string;
  diagnostics(text: string, options: Options | undefined): Diagnostic[];
  fixes(text: string, diagnostic: Diagnostic, options: Options | undefined): Fix[];
}

export interface RuleCase<Options = undefined> {
  /** What the case shows: the test's title. */
  name: string;
  /** The file, `// want` markers included. */
  text: string;
  /** The file once every fix its wants name is applied, one at a time, in line order. */
  fixed?: string;
  options?: Options;
}

export const STATE_RULE_SPEC: RuleSpecKind<StateAnalysisOptions> = {
  name: 'state',
  diagnostics: (text, options) => stateDocument(text, options).analysis.diagnostics,
  fixes: (text, diagnostic, options) => fixesFor(stateDocument(text, options).snapshot, diagnostic),
};

/** How a state spec's export is built: the version line, the manifest line, extra members of the top and of the deployment. */
interface StateExportParts {
  /** The version value, with a `// want` marker if the line wants one. */
  version?: number | string;
  /** Members of the top level, after the version (e.g. `"features": […]`). */
  top?: readonly string[];
  manifest?: string;
  /** Members of the deployment, before the resources. */
  deployment?: readonly string[];
}

/**
 * An export (`pulumi stack export`) with one resource record per line, for the state rules' specs:
 * lines may end with `// want` markers (the commas go before them).
 */
export function stateExport(resources: readonly string[], parts: StateExportParts = {}): string {
  const members = (lines: readonly string[], indent: string) => lines.map((line) => withComma(`${indent}${line}`));
  const resourceLines = resources.map((line, i) => (i < resources.length - 1 ? withComma(`      ${line}`) : `      ${line}`));
  return [
    '{',
    withComma(`  "version": ${parts.version ?? 3}`),
    ...members(parts.top ?? [], '  '),
    '  "deployment": {',
    withComma(`    "manifest": ${parts.manifest ?? '{ "time": "2026-01-01T00:00:00Z", "magic": "", "version": "" }'}`),
    ...members(parts.deployment ?? [], '    '),
    '    "resources": [',
    ...resourceLines,
    '    ]',
    '  }',
    '}',
  ].join('\n');
}

/** `line` followed by a comma, which goes before the line's `// want` marker when it has one. */
function withComma(line: string): string {
  const marker = line.indexOf(' // want ');
  return marker === -1 ? `${line},` : `${line.slice(0, marker)},${line.slice(marker)}`;
}

/** A quota case's options: the server the editor is connected to, for `forgejo-version-mismatch` (the language server's code). */
export interface QuotaRuleSpecOptions {
  connected?: ConnectedServer;
}

/** The analysis's diagnostics, and with a connected server the language server's `forgejo-version-mismatch`, as the quota mode publishes them. */
function quotaDiagnostics(text: string, options: QuotaRuleSpecOptions | undefined): Diagnostic[] {
  const analysis = quotaDocument(text);
  const mismatch = options?.connected && versionMismatchDiagnostic(analysis, options.connected.version, options.connected.server);
  return mismatch ? [...analysis.diagnostics, mismatch] : analysis.diagnostics;
}

export const QUOTA_RULE_SPEC: RuleSpecKind<QuotaRuleSpecOptions> = {
  name: 'quota',
  diagnostics: quotaDiagnostics,
  fixes: (text, diagnostic) => quotaFixesFor(quotaDocument(text), diagnostic),
};

export const APP_INI_RULE_SPEC: RuleSpecKind<AppIniOptions> = {
  name: 'app.ini',
  diagnostics: (text, options) => analyzeAppIni(text, options).diagnostics,
  fixes: (text, diagnostic, options) => appIniFixesFor(analyzeAppIni(text, options), diagnostic),
};

/** app.ini options for a file checked as `version` of Forgejo reads it (the setting or the connected server). */
export function forgejoOptions(version: string): AppIniOptions {
  const result = forgejoProfile(version);
  assert.ok(result.ok, `Forgejo version ${version}`);
  return { forgejo: result.profile };
}

function applyNamedFixes<Options>(kind: RuleSpecKind<Options>, code: string, text: string, wants: Want[], options: Options | undefined): string {
  let result = text;
  for (const want of wants) {
    if (!want.fix) continue;
    const diagnostic = kind.diagnostics(result, options).find((d) => d.code === code && d.message.includes(want.message));
    assert.ok(diagnostic, `the ${code} diagnostic "${want.message}" before applying "${want.fix}"`);
    const offered = kind.fixes(result, diagnostic, options);
    const fix = offered.find((f) => f.title === want.fix);
    assert.ok(fix, `fix "${want.fix}" for line ${want.line + 1}; offered: ${offered.map((f) => `"${f.title}"`).join(', ') || 'none'}`);
    result = applyEdits(result, fix.edits);
  }
  return result;
}

/** The spec of one code's module: every case must get exactly its wanted diagnostics of `code`, and its named fixes must give `fixed`. */
export function describeRule<Options>(kind: RuleSpecKind<Options>, code: string, cases: readonly RuleCase<Options>[]): void {
  describe(`${kind.name} rule ${code}`, () => {
    for (const ruleCase of cases) {
      it(ruleCase.name, () => {
        const { text, wants } = readWants(ruleCase.text);
        assertWantedDiagnostics(
          kind.diagnostics(text, ruleCase.options).filter((d) => d.code === code),
          wants,
          `${code} diagnostics`,
        );
        const fixing = wants.some((want) => want.fix);
        assert.equal(fixing, ruleCase.fixed !== undefined, fixing ? 'a case whose wants name fixes gives its `fixed` text' : 'a case with `fixed` names its fixes in its wants');
        if (!fixing) return;
        const result = applyNamedFixes(kind, code, text, wants, ruleCase.options);
        assert.equal(result, ruleCase.fixed);
        const left = kind.diagnostics(result, ruleCase.options).filter((d) => d.code === code);
        assert.ok(left.length < wants.length, `${code} still reported ${left.length} times after its fixes`);
      });
    }
  });
}
