/**
 * One diagnostic code's module: the check that reports the code, the quick fix that answers it and
 * the sentence that documents it, in one file (`<kind>/rules/<codeInCamelCase>.ts`) with its spec
 * (`<codeInCamelCase>.test.ts`) beside it. Each kind lists its modules in `<kind>/rules/index.ts`, in
 * its registry's order; the code tables in docs/, the settings' code descriptions and the CLI's SARIF rules
 * are generated from that list. The registry (`<kind>/codes.ts`) keeps only the code and its severity,
 * so it stays a leaf anything may import.
 */
import type { Severity } from './diagnostics';

export interface DiagnosticRule<Code extends string, Check, Fix> {
  /** The registry code this module reports. */
  readonly code: Code;
  /** One sentence: what the code means and why it matters. */
  readonly doc: string;
  /**
   * Reports the code. It reads the kind's shared passes (the parse, and for state the integrity
   * index), never the text again.
   */
  readonly check: Check;
  /** The quick fixes of one of its diagnostics, when the code has any. */
  readonly fix?: Fix;
}

/** `missing-reference` → `missingReference`: the file name of a code's module. */
export function moduleNameOf(code: string): string {
  return code.replace(/[-.]([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** One code as tables and SARIF describe it: its registry severity, its module's doc, whether it has a fix. */
export interface DocumentedCode {
  readonly code: string;
  readonly severity: Severity;
  readonly doc: string;
  readonly hasFix: boolean;
}

/** The codes of one kind, in its rule list's order, each joined with its registry severity. */
export function documentedCodes<Code extends string>(
  rules: ReadonlyArray<{ readonly code: Code; readonly doc: string; readonly fix?: unknown }>,
  registry: Readonly<Record<Code, { readonly severity: Severity }>>,
): DocumentedCode[] {
  return rules.map(({ code, doc, fix }) => ({ code, severity: registry[code].severity, doc, hasFix: fix !== undefined }));
}
