/** Did-you-mean suggestions for names: the closest by edit distance, case-insensitive. */
import { editDistance } from '../../text/editDistance';

export function closest(value: string, candidates: string[]): string[] {
  const lowered = value.toLowerCase();
  return candidates
    .map((c) => ({ c, d: editDistance(lowered, c.toLowerCase()) }))
    .filter(({ d, c }) => d <= Math.max(2, Math.floor(c.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ c }) => c);
}

export function didYouMean(value: string, candidates: string[]): string {
  const best = closest(value, candidates);
  return best.length ? `. Did you mean "${best[0]}"?` : '';
}

/** The names of `kind` defined first (a repeat is not a second candidate), in file order. */
export function definedNames(reading: { definitions: Array<{ kind: string; name: string; first?: unknown }> }, kind: string): string[] {
  return reading.definitions.filter((d) => d.kind === kind && !d.first).map((d) => d.name);
}
