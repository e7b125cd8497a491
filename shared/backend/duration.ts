/** Durations as Pulumi's flags and our `--older-than` / `--stale-after` take them: Go's syntax, and days. */
/** A Go duration (`90m`, `1h30m`, `36h`, `1.5h`) or days (`30d`), in milliseconds; undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  // Microseconds as Go spells them: `us`, `\u00b5s` (micro sign) and `\u03bcs` (Greek mu); escaped, so the bundles stay ASCII.
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, '\u00b5s': 1e-3, '\u03bcs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  if (!/^(?:[0-9]+(?:\.[0-9]+)?(?:ns|us|\u00b5s|\u03bcs|ms|s|m|h|d))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/([0-9]+(?:\.[0-9]+)?)(ns|us|\u00b5s|\u03bcs|ms|s|m|h|d)/g)) total += Number(amount) * units[unit];
  return total;
}
