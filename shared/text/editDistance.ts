/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}

/**
 * The candidates close to `value` (ignoring case), closest first, ties in candidate order: `within`
 * says how many edits still count as close to a candidate.
 */
export function closestByEditDistance(value: string, candidates: readonly string[], within: (candidate: string) => number): string[] {
  const lowered = value.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(lowered, candidate.toLowerCase()) }))
    .filter(({ candidate, distance }) => distance <= within(candidate))
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
}
