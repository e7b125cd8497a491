/**
 * `pulumi state repair` (pkg/cmd/pulumi/state/state_repair.go, `Snapshot.Repair` in
 * pkg/resource/deploy/snapshot.go): a file that passes Pulumi's integrity check is left alone;
 * otherwise the records are sorted topologically (v3.274.1's deterministic post-order depth-first
 * search: records in file order, each one's dependencies in file order) and then pruned: a missing
 * parent is cleared and the urn rebuilt without it (children follow), dangling dependencies,
 * property dependencies, deletedWith and replaceWith are dropped, and dangling provider references
 * stay (the result then still fails, and says why). A cycle is refused and shown.
 *
 * Deviation: Pulumi's Prune appends the kept replaceWith urns onto the old list (so the dangling
 * entries stay and the kept ones double); we drop the dangling ones, as for the other fields.
 * Pulumi writes nothing when errors remain after the repair; we write the improvement (never with
 * an error the input did not have) and list what remains.
 */
import * as l10n from '@vscode/l10n';
import { analyzeSnapshot } from '../analyze';
import { l10nBundle } from '../../l10n';
import type { JsonObject } from '../model/structure';
import { allDependencies, providerRef, str, type Dependency, type SurgeryInput } from './document';
import { finish, inputErrors, openForOperation, refused, type CutReference, type SurgeryChange, type SurgeryOutcome } from './outcome';
import { newUrn, urnParts } from './rename';

/** The checker's codes for what `Snapshot.VerifyIntegrity` refuses. */
export const INTEGRITY_CODES = new Set([
  'forward-reference',
  'missing-reference',
  'self-reference',
  'duplicate-urn',
  'unknown-provider',
  'invalid-provider-reference',
  'dependency-cycle',
  'magic-mismatch',
  'missing-type',
  'component-with-id',
  'invalid-snippet',
]);

class CycleError extends Error {}

/** `Snapshot.Toposort` (v3.274.1): the new order as original indices. Throws CycleError. */
function toposort(records: readonly JsonObject[]): number[] {
  const olds = new Map<string, number>();
  const news = new Map<string, number>();
  records.forEach((r, i) => (r.delete === true ? olds : news).set(r.urn as string, i));
  const lookup = (from: JsonObject, urn: string): number | undefined => {
    const old = olds.get(urn);
    const fresh = news.get(urn);
    if (old !== undefined && fresh !== undefined) return from.delete === true ? old : fresh;
    return old ?? fresh;
  };
  const nextsOf = (i: number): number[] => {
    const record = records[i];
    const nexts = new Set<number>();
    for (const dep of allDependencies(record)) {
      const next = lookup(record, dep.urn);
      if (next !== undefined) nexts.add(next);
    }
    if (str(record, 'provider')) {
      const ref = providerRef(record);
      if (!ref) throw new CycleError(l10n.t("failed to parse provider reference for resource {0}: expected '::' in provider reference '{1}'", String(record.urn), String(record.provider)));
      const next = lookup(record, ref.urn);
      if (next !== undefined) nexts.add(next);
    }
    return [...nexts].sort((a, b) => a - b);
  };
  const visiting = new Uint8Array(records.length);
  const visited = new Uint8Array(records.length);
  const sorted: number[] = [];
  const frames: Array<{ i: number; nexts: number[]; k: number }> = [];
  const enter = (i: number) => {
    visiting[i] = 1;
    frames.push({ i, nexts: nextsOf(i), k: 0 });
  };
  for (let root = 0; root < records.length; root++) {
    if (visited[root]) continue;
    enter(root);
    while (frames.length) {
      const frame = frames[frames.length - 1];
      if (frame.k < frame.nexts.length) {
        const next = frame.nexts[frame.k++];
        if (visiting[next]) throw new CycleError(l10n.t('snapshot has cyclic dependencies'));
        if (!visited[next]) enter(next);
      } else {
        visited[frame.i] = 1;
        visiting[frame.i] = 0;
        sorted.push(frame.i);
        frames.pop();
      }
    }
  }
  return sorted;
}

interface PruneResult {
  index: number;
  oldUrn: string;
  newUrn: string;
  removed: CutReference[];
}

/** `Snapshot.Prune` over `order` (original indices), on copy-on-write values. */
function prune(records: readonly JsonObject[], order: readonly number[]): { values: Map<number, JsonObject>; results: PruneResult[] } {
  // Each urn seen so far, mapped to its urn after pruning: a reference to anything else dangles.
  const seen = new Map<string, string>();
  const values = new Map<number, JsonObject>();
  const results: PruneResult[] = [];
  for (const index of order) {
    const oldUrn = records[index].urn as string;
    const pruned = pruneRecord(records[index], seen);
    if (pruned.urn !== oldUrn || pruned.removed.length) results.push({ index, oldUrn, newUrn: pruned.urn, removed: pruned.removed });
    if (pruned.changed) values.set(index, pruned.next);
    seen.set(oldUrn, pruned.urn);
  }
  return { values, results };
}

/** One record's pruning: its copy, its urn and the references kept and cut so far. */
interface RecordPruning {
  oldUrn: string;
  urn: string;
  next: JsonObject;
  changed: boolean;
  removed: CutReference[];
  dependencies: ListPruning<string[]>;
  propertyDependencies: ListPruning<Record<string, string[]>>;
  replaceWith: ListPruning<string[]>;
}

/** A list field's kept references, and whether any of them was cut or rewritten. */
interface ListPruning<T> {
  kept: T;
  changed: boolean;
}

/** Prunes one record: `seen` maps each urn earlier in the order to its new urn. */
function pruneRecord(record: JsonObject, seen: ReadonlyMap<string, string>): RecordPruning {
  const oldUrn = record.urn as string;
  const pruning: RecordPruning = {
    oldUrn,
    urn: oldUrn,
    next: { ...record },
    changed: false,
    removed: [],
    dependencies: { kept: [], changed: false },
    propertyDependencies: { kept: {}, changed: false },
    replaceWith: { kept: [], changed: false },
  };
  for (const dep of allDependencies(record)) pruneDependency(pruning, dep, seen.get(dep.urn));
  const { next } = pruning;
  if (pruning.dependencies.changed) {
    next.dependencies = pruning.dependencies.kept;
    pruning.changed = true;
  }
  if (pruning.propertyDependencies.changed) {
    next.propertyDependencies = pruning.propertyDependencies.kept;
    pruning.changed = true;
  }
  if (pruning.replaceWith.changed) {
    if (pruning.replaceWith.kept.length) next.replaceWith = pruning.replaceWith.kept;
    else delete next.replaceWith;
    pruning.changed = true;
  }
  if (pruning.urn !== oldUrn) {
    next.urn = pruning.urn;
    pruning.changed = true;
  }
  return pruning;
}

/** Keeps (rewritten to `mapped`) or cuts one reference; a cut parent rebuilds the urn without it. */
function pruneDependency(pruning: RecordPruning, dep: Dependency, mapped: string | undefined): void {
  const { next } = pruning;
  const parts = urnParts(pruning.oldUrn);
  const cut = () => pruning.removed.push({ from: pruning.oldUrn, kind: dep.kind, target: dep.urn, key: dep.key });
  switch (dep.kind) {
    case 'parent':
      if (mapped === undefined) {
        pruning.urn = newUrn(parts.stack, parts.project, '', parts.type, parts.name);
        delete next.parent;
        pruning.changed = true;
        cut();
      } else {
        pruning.urn = newUrn(parts.stack, parts.project, urnParts(mapped).qualifiedType, parts.type, parts.name);
        if (mapped !== dep.urn) {
          next.parent = mapped;
          pruning.changed = true;
        }
      }
      break;
    case 'dependency':
      if (mapped !== undefined) pruning.dependencies.kept.push(mapped);
      else cut();
      if (mapped !== dep.urn) pruning.dependencies.changed = true;
      break;
    case 'propertyDependency':
      if (mapped !== undefined) (pruning.propertyDependencies.kept[dep.key!] ??= []).push(mapped);
      else cut();
      if (mapped !== dep.urn) pruning.propertyDependencies.changed = true;
      break;
    case 'deletedWith':
      if (mapped !== undefined) {
        if (mapped !== dep.urn) {
          next.deletedWith = mapped;
          pruning.changed = true;
        }
      } else {
        delete next.deletedWith;
        pruning.changed = true;
        cut();
      }
      break;
    case 'replaceWith':
      if (mapped !== undefined) pruning.replaceWith.kept.push(mapped);
      else cut();
      if (mapped !== dep.urn) pruning.replaceWith.changed = true;
      break;
  }
}

export function repairState(input: SurgeryInput, options: { verify?: boolean } = {}): SurgeryOutcome {
  const operation = 'repair';
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const records = doc.records;
  const initial = inputErrors(doc).filter((d) => INTEGRITY_CODES.has(d.code));
  if (initial.length === 0) {
    return { ...refused(doc, operation, []), status: 'unchanged', message: l10n.t('The snapshot is already valid; skipping repair'), errors: [], text: doc.text };
  }
  let order: number[];
  try {
    order = toposort(records);
  } catch (error) {
    if (!(error instanceof CycleError)) throw error;
    const cycles = (l10nBundle() ? analyzeSnapshot(doc.snapshot).diagnostics : inputErrors(doc)).filter((d) => d.code === 'dependency-cycle' || d.code === 'self-reference');
    return refused(doc, operation, [
      error.message,
      ...cycles.map((d) => `  ${l10n.t('line {0}: {1}', d.range.start.line + 1, d.message)}`),
      l10n.t('Break the cycle by hand (remove one of its references), then run repair again.'),
    ]);
  }
  const { values, results } = prune(records, order);
  const changes: SurgeryChange[] = [];
  order.forEach((index, position) => {
    if (index !== position) changes.push({ urn: records[index].urn as string, index, action: 'reordered', detail: l10n.t('moved to index {0}', position) });
  });
  const renamed = new Map<string, string>();
  for (const result of results) {
    if (result.newUrn !== result.oldUrn) {
      renamed.set(result.oldUrn, result.newUrn);
      const parentCut = result.removed.some((r) => r.kind === 'parent');
      changes.push({ urn: result.oldUrn, index: result.index, action: parentCut ? 'parent-cleared' : 'renamed', newUrn: result.newUrn });
    }
    if (result.removed.length) {
      const detail = result.removed.length === 1 ? l10n.t('1 dangling reference removed') : l10n.t('{0} dangling references removed', result.removed.length);
      changes.push({ urn: result.oldUrn, index: result.index, action: 'pruned', detail });
    }
  }
  const outcome = finish(
    doc,
    operation,
    { records: order.map((from) => ({ from, value: values.get(from) ?? records[from] })) },
    {
      message: l10n.t('State repaired successfully'),
      changes,
      referencesCut: results.flatMap((r) => r.removed.map((cut) => ({ ...cut, from: r.newUrn }))),
      notes: [
        l10n.t('Dangling provider references are left as Pulumi leaves them: a resource must have its provider.'),
        l10n.t(
          'The order is Pulumi\'s (a depth-first post-order); the editor\'s "Reorder resources" quick fix keeps the original order wherever it can, so the two may order independent records differently.',
        ),
      ],
    },
    { verify: options.verify, renamed },
  );
  if (outcome.status !== 'refused' && outcome.remainingErrors.length) {
    const left = outcome.remainingErrors.length;
    outcome.message =
      left === 1 ? l10n.t('State partly repaired: 1 error remains (Pulumi would write nothing)') : l10n.t('State partly repaired: {0} errors remain (Pulumi would write nothing)', left);
  }
  return outcome;
}
