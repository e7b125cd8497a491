/**
 * Which record a command-line argument names: a URN, or `URN#N` for the N-th record (1-based, in
 * file order) with that URN. Errors use Pulumi's wording (pkg/cmd/pulumi/state/io.go): an unknown
 * URN gets "Did you mean" with up to three URNs within Pulumi's case-insensitive Levenshtein
 * threshold, and an ambiguous URN lists its copies.
 */
import * as l10n from '@vscode/l10n';
import type { JsonObject } from '../model/structure';
import { str } from './document';

export const listHint = () => l10n.t('To list the resource URNs in the file, run `quota-state check` or open it in the editor (document symbols).');

export class TargetError extends Error {
  /** For a URN several records have: each copy, described (an operation may word the refusal its own way). */
  constructor(
    message: string,
    readonly copies?: string[],
  ) {
    super(message);
  }
}

/** Pulumi's `URN.IsValid`: the `urn:pulumi:` prefix and at least three `::`. */
export function isValidUrn(urn: string): boolean {
  return urn.startsWith('urn:pulumi:') && urn.split('::').length - 1 >= 3;
}

/** Levenshtein over code points, characters compared case-insensitively (`similarURNs`). */
function distance(a: string, b: string): number {
  const x = [...a].map((c) => c.toLowerCase());
  const y = [...b].map((c) => c.toLowerCase());
  const row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (x[i - 1] === y[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[y.length];
}

/** `similarURNs`: up to `limit` candidates within max(2, len/4) (len in bytes), nearest first, stable. */
export function similarUrns(candidates: readonly string[], urn: string, limit = 3): string[] {
  const threshold = Math.max(2, Math.floor(new TextEncoder().encode(urn).length / 4));
  const ranked: Array<{ urn: string; d: number; i: number }> = [];
  const seen = new Set<string>();
  candidates.forEach((candidate, i) => {
    if (seen.has(candidate)) return;
    seen.add(candidate);
    // Lengths alone bound the distance from below: skip the quadratic work for hopeless candidates.
    if (Math.abs(candidate.length - urn.length) > threshold * 2) return;
    const d = distance(urn, candidate);
    if (d <= threshold) ranked.push({ urn: candidate, d, i });
  });
  ranked.sort((a, b) => a.d - b.d || a.i - b.i);
  return ranked.slice(0, limit).map((r) => r.urn);
}

/** The refusal of an argument that is no URN, with the way to list them. */
export function notAUrn(arg: string): string {
  return `${l10n.t('"{0}" is not a valid resource URN', arg)}\n${listHint()}`;
}

/** `resourceNotFoundError`. */
function notFoundMessage(candidates: readonly string[], urn: string): string {
  const lines = [l10n.t('No such resource "{0}" exists in the current state', urn)];
  const suggestions = similarUrns(candidates, urn);
  if (suggestions.length) lines.push(l10n.t('Did you mean:'), ...suggestions.map((s) => `  ${s}`));
  lines.push(listHint());
  return lines.join('\n');
}

function describeCopy(record: JsonObject, urn: string, n: number): string {
  const id = JSON.stringify(str(record, 'id'));
  const live = record.delete !== true;
  if (record.protect === true) return live ? l10n.t('{0} (id {1}, live, protected)', `${urn}#${n}`, id) : l10n.t('{0} (id {1}, pending deletion, protected)', `${urn}#${n}`, id);
  return live ? l10n.t('{0} (id {1}, live)', `${urn}#${n}`, id) : l10n.t('{0} (id {1}, pending deletion)', `${urn}#${n}`, id);
}

/** The refusal of a URN several records have, under `header` (Pulumi's question by default), listing `copies`. */
export function ambiguousMessage(copies: readonly string[], header = l10n.t('Resource URN ambiguously referred to multiple resources. Did you mean:')): string {
  return [header, ...copies, l10n.t('Name one copy as URN#N (the N-th record with that URN, in file order).')].join('\n');
}

export interface Resolved {
  index: number;
  urn: string;
  /** Whether the argument named the copy explicitly (URN#N). */
  explicit: boolean;
}

/**
 * The record `arg` names. `eligible` filters the records an operation may take (protect and taint
 * skip records pending deletion); for a plain URN with several eligible copies, `pick` decides
 * ('last' as Pulumi's map of URNs does for protect/taint, 'refuse' as remove and rename do).
 */
export function resolveTarget(
  records: readonly JsonObject[],
  arg: string,
  options: { eligible?: (record: JsonObject) => boolean; pick: 'last' | 'refuse'; ineligibleReason?: (target: string) => string },
): Resolved {
  const eligible = options.eligible ?? (() => true);
  const byUrn = (urn: string) => records.map((r, i) => (r.urn === urn ? i : -1)).filter((i) => i !== -1);
  let urn = arg;
  let copy: number | undefined;
  const address = /^(.*)#([1-9][0-9]*)$/.exec(arg);
  if (address && byUrn(arg).length === 0) {
    urn = address[1];
    copy = Number(address[2]);
  }
  if (!isValidUrn(urn)) throw new TargetError(notAUrn(arg));
  const all = byUrn(urn);
  if (copy !== undefined) {
    if (copy > all.length) {
      if (all.length === 0)
        throw new TargetError(
          notFoundMessage(
            records.map((r) => r.urn as string),
            urn,
          ),
        );
      throw new TargetError(all.length === 1 ? l10n.t('{0} has 1 record, so there is no {1}', urn, arg) : l10n.t('{0} has {1} records, so there is no {2}', urn, all.length, arg));
    }
    const index = all[copy - 1];
    if (!eligible(records[index])) throw new TargetError(options.ineligibleReason ? options.ineligibleReason(arg) : l10n.t('{0} cannot be edited by this operation', arg));
    return { index, urn, explicit: true };
  }
  const candidates = all.filter((i) => eligible(records[i]));
  if (candidates.length === 0) {
    const names = records.filter(eligible).map((r) => r.urn as string);
    if (all.length > 0 && options.ineligibleReason) throw new TargetError(`${notFoundMessage(names, urn)}\n(${options.ineligibleReason(urn)})`);
    throw new TargetError(notFoundMessage(names, urn));
  }
  if (candidates.length > 1 && options.pick === 'refuse') {
    const copies = all.map((index, k) => `  ${describeCopy(records[index], urn, k + 1)}`);
    throw new TargetError(ambiguousMessage(copies), copies);
  }
  return { index: candidates[candidates.length - 1], urn, explicit: false };
}
