/** Did-you-mean for the app.ini rules: the names close to a misspelt one, and the fixes that swap them in. */
import type { Fix, FixRequest } from '../../edits';
import { closestByEditDistance } from '../../text/editDistance';

/** The candidates within `tolerance` edits of `value` (ignoring case), closest first. */
export function closest(value: string, candidates: string[], tolerance = 2): string[] {
  return closestByEditDistance(value, candidates, () => tolerance);
}

/** What a did-you-mean diagnostic keeps in `data`: the names it suggests, closest first. */
export interface SuggestionData {
  suggestions?: string[];
}

/** One fix per suggestion in the diagnostic's `data`, replacing the diagnostic's span; the closest is preferred. */
export function suggestionFixes(request: FixRequest, title: (name: string) => string): Fix[] {
  const { suggestions } = request.data as SuggestionData;
  return (suggestions ?? []).map((name, i) => ({ title: title(name), edits: [{ ...request.span, newText: name }], preferred: i === 0 }));
}
