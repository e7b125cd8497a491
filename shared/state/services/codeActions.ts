/**
 * Quick fixes for state diagnostics: each diagnostic's code picks its fix provider in the registry,
 * which reads the diagnostic's `data`. A fix several diagnostics offer (one reorder answers every
 * forward reference) is listed once.
 */
import type { Range } from '../../diagnostics';
import { withoutRepeats, type Fix } from '../../edits';
import { STATE_CODES, type StateCode } from '../codes';
import { isObject } from '../model/structure';
import { stateFixProvider } from '../rules';
import type { StateSnapshot } from '../model/snapshot';

/** What a fix reads of a diagnostic; the shared model and LSP's diagnostics both have it. */
export interface FixableDiagnostic {
  code?: unknown;
  range: Range;
  data?: unknown;
}

/** The fixes of one diagnostic, by its code. */
export function fixesFor(snapshot: StateSnapshot, diagnostic: FixableDiagnostic): Fix[] {
  const code = diagnostic.code;
  if (typeof code !== 'string' || !Object.hasOwn(STATE_CODES, code) || !isObject(diagnostic.data)) return [];
  const provider = stateFixProvider(code as StateCode);
  if (!provider) return [];
  const start = snapshot.lines.offsetAt(diagnostic.range.start);
  const span = { offset: start, length: snapshot.lines.offsetAt(diagnostic.range.end) - start };
  return provider(snapshot, { code, span, data: diagnostic.data });
}

/** Every fix of `diagnostics`, each with the diagnostic it answers, repeats removed. */
export function stateCodeActions<D extends FixableDiagnostic>(snapshot: StateSnapshot, diagnostics: readonly D[]): Array<{ fix: Fix; diagnostic: D }> {
  return withoutRepeats(diagnostics.flatMap((diagnostic) => fixesFor(snapshot, diagnostic).map((fix) => ({ fix, diagnostic }))));
}
