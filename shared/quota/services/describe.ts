/** Sentences about quota verdicts, shared by hovers, inlay hints, code lenses and the CLI. */
import type { RuleVerdict } from '../evaluate';
import { formatSize } from '../sizes';

export function ruleFigure(rule: RuleVerdict): string {
  return `${formatSize(rule.used)} / ${formatSize(rule.limit)}`;
}

/** `12 MiB/100 MiB`: the figure for places with little room (inlay hints). */
export function compactFigure(rule: RuleVerdict): string {
  return `${formatSize(rule.used)}/${formatSize(rule.limit)}`;
}
