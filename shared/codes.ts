/**
 * The shape of a diagnostic-code registry. Each file kind keeps one registry (its `codes.ts`): the
 * codes and their default severities, which the checks, the settings and the tests read. What a code
 * means, how it is checked and fixed is its module's (`shared/diagnosticRule.ts`), so the registry
 * stays a leaf anything may import.
 */
import type { Severity } from './diagnostics';

export interface CodeInfo {
  /** Stable code shown in the Problems view and used in severity overrides. */
  readonly code: string;
  /** Severity used unless the user's settings override it. */
  readonly severity: Severity;
}

export type CodeRegistry<C extends string> = { readonly [K in C]: CodeInfo & { readonly code: K } };

/** Builds a registry keyed by code from a list, so the code is not spelt twice per entry. */
export function defineCodes<const C extends string, Extra extends object = object>(
  entries: readonly ({ code: C; severity: Severity } & Extra)[],
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
