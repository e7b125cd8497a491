/**
 * Turns an operation's plan (the new list of records, the pending operations kept) into minimal
 * text edits: records the plan keeps unchanged keep their bytes, changed records are edited member
 * by member, removed records are cut with their separators, and `version`/`features` are recomputed
 * as Pulumi's serializer does (`SerializeDeploymentWithMetadata`, pkg/resource/stack/deployment.go).
 */
import { applyEdits, type TextEdit } from '../../edits';
import { pathKey, type LocatedNode } from '../model/locate';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import { RESOURCE_FIELD_ORDER, type EditableState } from './document';
import { lineIndent } from '../../json/indentation';
import { objectEdits, removalEdits, renderValue } from './text';

/** One record of the new list: an original record (maybe changed) or a new one. */
export type PlannedRecord = { from: number; value: JsonObject } | { from?: undefined; value: JsonObject };

export interface Plan {
  records: PlannedRecord[];
  /** Indices of the pending operations kept; undefined keeps them all. */
  keepPending?: number[];
}

/** The byte-string signature (pkg/resource/stack/deployment.go `ByteStringSig`). */
const SIG_KEY = '4dabf18193072939515e22adb298388d';
const BYTE_STRING_SIG = '803fd3297a5875dc03ca845dda5d2a98';

function hasByteString(value: unknown, depth = 0): boolean {
  if (depth > 200) return false;
  if (Array.isArray(value)) return value.some((v) => hasByteString(v, depth + 1));
  if (!isObject(value)) return false;
  if (value[SIG_KEY] === BYTE_STRING_SIG) return true;
  return Object.values(value).some((v) => hasByteString(v, depth + 1));
}

/** `ApplyFeatures` for one record. */
function recordFeatures(record: JsonObject, features: Set<string>, byteStrings = true): void {
  if (byteStrings && (hasByteString(record.inputs) || hasByteString(record.outputs) || hasByteString(record.replacementTrigger))) features.add('byteString');
  if (record.refreshBeforeUpdate === true) features.add('refreshBeforeUpdate');
  if (typeof record.viewOf === 'string' && record.viewOf !== '') features.add('views');
  if (isObject(record.resourceHooks) && Object.keys(record.resourceHooks).length > 0) features.add('hooks');
  if (record.taint === true) features.add('taint');
  if ((Array.isArray(record.replaceWith) && record.replaceWith.length > 0) || (typeof record.replaceWith === 'string' && record.replaceWith !== '')) features.add('replaceWith');
  if (typeof record.extensionRef === 'string' && record.extensionRef !== '') features.add('extensionParameterization');
  if (typeof record.snippetID === 'string' && record.snippetID !== '') features.add('snippets-prototype');
}

export interface VersionInfo {
  before?: number;
  after?: number;
  featuresBefore?: string[];
  featuresAfter?: string[];
}

export interface Rendered {
  edits: TextEdit[];
  text: string;
  version: VersionInfo;
}

/** The features the serializer would write for these records and pending operations. */
function deploymentFeatures(records: JsonObject[], pending: JsonObject[], deployment: JsonObject | undefined, text?: string): string[] {
  const features = new Set<string>();
  // Byte strings need a walk through every value: skipped when the signature is nowhere in the text.
  const byteStrings = text === undefined || text.includes(BYTE_STRING_SIG);
  for (const record of records) recordFeatures(record, features, byteStrings);
  if (byteStrings) {
    for (const record of pending) {
      if (hasByteString(record.inputs) || hasByteString(record.outputs) || hasByteString(record.replacementTrigger)) features.add('byteString');
    }
  }
  if (deployment && Array.isArray(deployment.snippets) && deployment.snippets.length > 0) features.add('snippets-prototype');
  return [...features].sort();
}

export function renderPlan(doc: EditableState, plan: Plan): Rendered {
  const { text, style, records, layout, snapshot } = doc;
  const structure = snapshot.structure;
  const edits: TextEdit[] = [];

  // Which originals survive, and whether they keep their relative order.
  const kept = plan.records.filter((r): r is { from: number; value: JsonObject } => r.from !== undefined);
  const inOrder = kept.every((r, i) => i === 0 || r.from > kept[i - 1].from);
  const added = plan.records.filter((r) => r.from === undefined);
  const recordText = (r: PlannedRecord, indent: string): string => {
    if (r.from === undefined) return renderValue(r.value, style, indent);
    const start = layout!.starts[r.from];
    const end = layout!.ends[r.from];
    if (r.value === records[r.from]) return text.slice(start, end);
    const inner = objectEdits(text, { offset: start, length: end - start }, records[r.from], r.value, style, RESOURCE_FIELD_ORDER);
    return applyEdits(
      text.slice(start, end),
      inner.map((e) => ({ ...e, offset: e.offset - start })),
    );
  };

  if (layout && records.length > 0 && (!inOrder || (added.length > 0 && !addedOnlyAtEnds(plan)))) {
    // Reordered: the array's content is rebuilt from the records' own texts, joined as before.
    const separator = records.length > 1 ? text.slice(layout.ends[0], layout.starts[1]) : `,${style.minified ? '' : `${style.eol}${lineIndent(text, layout.starts[0])}`}`;
    const indent = lineIndent(text, layout.starts[0]);
    const first = layout.starts[0];
    const last = layout.ends[records.length - 1];
    edits.push({ offset: first, length: last - first, newText: plan.records.map((r) => recordText(r, indent)).join(separator) });
  } else if (layout) {
    edits.push(...arrayEdits(doc, plan, recordText));
  } else if (added.length > 0) {
    edits.push(...newResourcesArray(doc, plan));
  }

  // Pending operations.
  const deploymentPath = structure.deploymentPath!;
  const deployment = valueAt(structure.root, deploymentPath) as JsonObject;
  const pendingValues = Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  const keepPending = plan.keepPending ?? pendingValues.map((_, i) => i);
  if (keepPending.length !== pendingValues.length) {
    const path = [...deploymentPath, 'pending_operations'];
    if (keepPending.length === 0) {
      // Pulumi omits an empty pending_operations (`omitempty`): the member goes.
      const node = snapshot.locator.locateAll([path]).get(pathKey(path));
      if (node) edits.push(...removalEdits(text, [node]));
    } else {
      const dropped = pendingValues.map((_, i) => i).filter((i) => !keepPending.includes(i));
      const located = snapshot.locator.locateAll(dropped.map((i) => [...path, i]));
      const nodes = dropped.map((i) => located.get(pathKey([...path, i]))).filter((n): n is LocatedNode => n !== undefined);
      edits.push(...removalEdits(text, nodes));
    }
  }

  // Version and features, as the serializer writes them.
  const newRecords = plan.records.map((r) => r.value);
  const pendingKept = keepPending.map((i) => doc.pending[i]).filter((r): r is JsonObject => r !== undefined);
  // Byte strings: Pulumi wrote the feature when the input had one; otherwise only new or changed records could bring one.
  const root = structure.root as JsonObject;
  const declared = Array.isArray(root.features) && root.features.includes('byteString');
  const touched = plan.records.filter((r) => r.from === undefined || r.value !== records[r.from]).map((r) => r.value);
  const scanFor = declared ? text : touched.length ? JSON.stringify(touched) : '';
  const version = versionEdits(doc, deploymentFeatures(newRecords, pendingKept, deployment, scanFor), edits);
  const newText = applyEdits(text, edits);
  return { edits: edits.sort((a, b) => a.offset - b.offset), text: newText, version };
}

/** New records only appended after the last original (or prepended before the first). */
function addedOnlyAtEnds(plan: Plan): boolean {
  const firstKept = plan.records.findIndex((r) => r.from !== undefined);
  if (firstKept === -1) return true;
  let lastKept = -1;
  plan.records.forEach((r, i) => {
    if (r.from !== undefined) lastKept = i;
  });
  return plan.records.slice(firstKept, lastKept + 1).every((r) => r.from !== undefined);
}

/** Edits for a plan that keeps the originals' order: cut runs of removed records, edit changed ones, add new ones at the ends. */
function arrayEdits(doc: EditableState, plan: Plan, recordText: (r: PlannedRecord, indent: string) => string): TextEdit[] {
  const { text, layout, records, style } = doc;
  const L = layout!;
  const n = records.length;
  const edits: TextEdit[] = [];
  const keptAt = new Map<number, PlannedRecord>();
  for (const r of plan.records) if (r.from !== undefined) keptAt.set(r.from, r);
  const firstKeptPosition = plan.records.findIndex((r) => r.from !== undefined);
  const before = firstKeptPosition === -1 ? plan.records : plan.records.slice(0, firstKeptPosition);
  const after = firstKeptPosition === -1 ? [] : plan.records.slice(plan.records.length - [...plan.records].reverse().findIndex((r) => r.from !== undefined));
  const indent = n > 0 ? lineIndent(text, L.starts[0]) : '';
  const separator = n > 1 ? text.slice(L.ends[0], L.starts[1]) : `,${style.minified ? '' : `${style.eol}${indent}`}`;

  if (keptAt.size === 0) {
    // Everything goes (new records, if any, take their place).
    if (n === 0) {
      if (before.length)
        edits.push({
          offset: L.array.offset,
          length: L.array.length,
          newText: renderValue(
            before.map((r) => r.value),
            style,
            lineIndent(text, L.array.offset),
          ),
        });
      return edits;
    }
    const content = before.map((r) => recordText(r, indent)).join(separator);
    {
      const arrayStart = L.array.offset + 1;
      const arrayEnd = L.array.offset + L.array.length - 1;
      edits.push(content ? { offset: L.starts[0], length: L.ends[n - 1] - L.starts[0], newText: content } : { offset: arrayStart, length: arrayEnd - arrayStart, newText: '' });
    }
    return edits;
  }
  // Runs of removed originals.
  let i = 0;
  while (i < n) {
    if (keptAt.has(i)) {
      const r = keptAt.get(i)!;
      if (r.value !== records[i]) {
        edits.push(...objectEdits(text, { offset: L.starts[i], length: L.ends[i] - L.starts[i] }, records[i], r.value, style, RESOURCE_FIELD_ORDER));
      }
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < n && !keptAt.has(j + 1)) j++;
    // Cut records i..j with one separator: the one before (when a kept record precedes), else the one after.
    if (i > 0) edits.push({ offset: L.ends[i - 1], length: L.ends[j] - L.ends[i - 1], newText: '' });
    else edits.push({ offset: L.starts[0], length: L.starts[j + 1] - L.starts[0], newText: '' });
    i = j + 1;
  }
  if (before.length) {
    const firstKept = plan.records[firstKeptPosition].from!;
    edits.push({ offset: L.starts[firstKept], length: 0, newText: before.map((r) => recordText(r, indent) + separator).join('') });
  }
  if (after.length) {
    let lastKept = -1;
    for (const r of plan.records) if (r.from !== undefined) lastKept = r.from;
    edits.push({ offset: L.ends[lastKept], length: 0, newText: after.map((r) => separator + recordText(r, indent)).join('') });
  }
  return edits;
}

/** A deployment without a resources array gets one (moving into an empty stack). */
function newResourcesArray(doc: EditableState, plan: Plan): TextEdit[] {
  const { snapshot, text, style } = doc;
  const structure = snapshot.structure;
  const deploymentPath = structure.deploymentPath!;
  const located = snapshot.locator.locateAll([deploymentPath, [...deploymentPath, 'resources']]);
  const existing = located.get(pathKey([...deploymentPath, 'resources']));
  const deploymentNode = located.get(pathKey(deploymentPath))!;
  const deployment = valueAt(structure.root, deploymentPath) as JsonObject;
  const resources = plan.records.map((r) => r.value);
  if (existing) {
    const indent = existing.key ? lineIndent(text, existing.key.offset) : '';
    return [{ offset: existing.value.offset, length: existing.value.length, newText: renderValue(resources, style, indent) }];
  }
  return objectEdits(text, deploymentNode.value, deployment, { ...deployment, resources }, style, ['manifest', 'secrets_providers', 'resources']);
}

/**
 * `version` 4 with the sorted features when any feature is used, else `version` 3 and no
 * `features`. A bare deployment has neither.
 */
function versionEdits(doc: EditableState, features: string[], edits: TextEdit[]): VersionInfo {
  const { snapshot, text, style } = doc;
  const root = snapshot.structure.root as JsonObject;
  const shape = snapshot.structure.shape;
  if (shape !== 'export' && shape !== 'checkpoint') return {};
  const before = typeof root.version === 'number' ? root.version : undefined;
  const featuresBefore = Array.isArray(root.features) ? root.features.filter((f): f is string => typeof f === 'string') : undefined;
  const after = features.length ? 4 : 3;
  const head = JSON.stringify({ version: root.version, features: root.features });
  const headAfter = JSON.stringify({ version: after, features: features.length ? features : undefined });
  if (head !== headAfter) {
    // Only version and features differ: every other member is the same object, so it is left alone.
    const next: JsonObject = {};
    for (const key of Object.keys(root)) if (key !== 'features') next[key] = key === 'version' ? after : root[key];
    if (!('version' in next)) next.version = after;
    if (features.length) next.features = features;
    const start = text.length - text.trimStart().length;
    const span = { offset: start, length: text.trimEnd().length - start };
    edits.push(...objectEdits(text, span, root, next, style, ['version', 'features', 'deployment', 'checkpoint']));
  }
  return { before, after, featuresBefore, featuresAfter: features.length ? features : undefined };
}
