/**
 * Quick fixes for state diagnostics: each diagnostic's code picks its module's fix provider (rules/index.ts),
 * which reads the diagnostic's `data`. A fix several diagnostics offer (one reorder answers every
 * forward reference) is listed once.
 */
import { fixRequestOf, withoutRepeats, type Fix, type FixableDiagnostic } from '../../edits';
import { STATE_CODES } from '../codes';
import { isObject } from '../model/structure';
import { stateFixProvider } from '../rules';
import type { StateSnapshot } from '../model/snapshot';

/** The fixes of one diagnostic, by its code; a state diagnostic without its payload has none. */
export function fixesFor(snapshot: StateSnapshot, diagnostic: FixableDiagnostic): Fix[] {
  if (!isObject(diagnostic.data)) return [];
  const request = fixRequestOf(diagnostic, STATE_CODES, snapshot.lines);
  const provider = request && stateFixProvider(request.code);
  return provider ? provider(snapshot, request) : [];
}

/** Every fix of `diagnostics`, each with the diagnostic it answers, repeats removed. */
export function stateCodeActions<D extends FixableDiagnostic>(snapshot: StateSnapshot, diagnostics: readonly D[]): Array<{ fix: Fix; diagnostic: D }> {
  return withoutRepeats(diagnostics.flatMap((diagnostic) => fixesFor(snapshot, diagnostic).map((fix) => ({ fix, diagnostic }))));
}
