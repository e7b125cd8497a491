/** Did-you-mean suggestions for names: the closest by edit distance, case-insensitive; and the "Change to …" fixes that offer them. */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest, TextEdit } from '../../edits';
import { closestByEditDistance } from '../../text/editDistance';
import type { QuotaFixProvider } from './quotaDiagnosticRule';

/** The three names closest to `value`: within two edits, or a third of a long name's length. */
export function closest(value: string, candidates: string[]): string[] {
  return closestByEditDistance(value, candidates, (candidate) => Math.max(2, Math.floor(candidate.length / 3))).slice(0, 3);
}

/** `message`, and when one of `candidates` is close to `value`, the question whether it was meant. */
export function didYouMean(message: string, value: string, candidates: string[]): string {
  const best = closest(value, candidates);
  return best.length ? l10n.t('{0}. Did you mean "{1}"?', message, best[0]) : message;
}

/** The names of `kind` defined first (a repeat is not a second candidate), in file order. */
export function definedNames(reading: { definitions: Array<{ kind: string; name: string; first?: unknown }> }, kind: string): string[] {
  return reading.definitions.filter((d) => d.kind === kind && !d.first).map((d) => d.name);
}

/** The diagnostic's string, replaced by `value` (quoted as JSON). */
export function replaceString({ span }: FixRequest, value: string): TextEdit[] {
  return [{ ...span, newText: JSON.stringify(value) }];
}

/** One "Change to …" fix per suggestion of the diagnostic's `data`; the first is preferred when `preferFirst`. */
export function suggestionFixes(request: FixRequest, title: (name: string) => string, preferFirst = false): Fix[] {
  const suggestions = (request.data as { suggestions?: string[] }).suggestions ?? [];
  return suggestions.map((name, i) => ({ title: title(name), edits: replaceString(request, name), preferred: preferFirst && i === 0 }));
}

/** The fixes of an unknown account or repository: change it to one of the suggested names. */
export const changeToSuggestedName: QuotaFixProvider = (_analysis, request) => suggestionFixes(request, (name) => l10n.t('Change to "{0}"', name));
