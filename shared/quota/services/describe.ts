/** Sentences about quota verdicts, shared by hovers, inlay hints, code lenses and the CLI. */
import type { Bytes } from '../evaluate';
import { formatSize } from '../sizes';

/** A rule's used and limit bytes, exact. */
type Figures = { used: Bytes; limit: Bytes };

/** `12 MiB / 100 MiB`. */
export function ruleFigure(rule: Figures): string {
  return `${formatSize(rule.used)} / ${formatSize(rule.limit)}`;
}

/** `12 MiB/100 MiB`: the figure for places with little room (inlay hints). */
export function compactFigure(rule: Figures): string {
  return `${formatSize(rule.used)}/${formatSize(rule.limit)}`;
}
