/**
 * The shape of a diagnostic-code registry. Each file kind keeps one registry (its `codes.ts`); the
 * checks, the tests, the README tables, the CLI's SARIF rules and the settings' code list all read it,
 * so a code, its default severity and its one-line documentation are written exactly once.
 */
import type { Severity } from './diagnostics';

export interface CodeInfo {
  /** Stable code shown in the Problems view and used in severity overrides. */
  readonly code: string;
  /** Severity used unless the user's settings override it. */
  readonly severity: Severity;
  /** One sentence for hovers, settings completion and SARIF rule descriptions. */
  readonly description: string;
}

export type CodeRegistry<C extends string> = { readonly [K in C]: CodeInfo & { readonly code: K } };

/** Builds a registry keyed by code from a list, so the code is not spelt twice per entry. */
export function defineCodes<const C extends string, Extra extends object = object>(
  entries: readonly ({ code: C; severity: Severity; description: string } & Extra)[],
): { readonly [K in C]: Readonly<CodeInfo & Extra> & { readonly code: K } } {
  const registry = {} as Record<string, CodeInfo & Extra>;
  for (const entry of entries) {
    if (registry[entry.code]) throw new Error(`diagnostic code ${entry.code} is registered twice`);
    registry[entry.code] = Object.freeze({ ...entry });
  }
  return Object.freeze(registry) as { readonly [K in C]: Readonly<CodeInfo & Extra> & { readonly code: K } };
}

export function codeList<C extends string>(registry: CodeRegistry<C>): CodeInfo[] {
  return Object.values(registry) as CodeInfo[];
}
