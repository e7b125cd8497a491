/**
 * What changed between two states (Pulumi #687: "a diff command", open since 2017). Resources match
 * by urn, copies of one urn by their position among the copies (as surgery's `URN#N`), and a record
 * whose `aliases` name a urn that is gone from the other side is that resource renamed. Each match
 * is compared field by field down to the changed leaf, secrets never shown: two different secrets are
 * "secret changed", and a plaintext secret of a decrypted export is masked.
 *
 * `created` and `modified` are left out: Pulumi rewrites them on every step that touches a record, and
 * its own counts (`resourceChanges`) do not call that a change. A resource whose only differences are
 * secrets' ciphertexts counts as the same (its changes are still listed): Pulumi re-encrypts
 * unchanged secrets with a new nonce on every update, so a ciphertext cannot tell a new value.
 */
import { sameJson } from '../../json/sameJson';
import { isObject, type JsonObject, type StateStructure } from '../../state/vocabulary';

const SECRET_SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
const SECRET_SIGNATURE = '1b47061264138c4ac30d75fd1eb44270';
const IGNORED_FIELDS = new Set(['created', 'modified']);
const MASK = '[secret]';

type ResourceChangeKind = 'added' | 'removed' | 'renamed' | 'replaced' | 'changed' | 'same';

interface FieldChange {
  /** A JSON path into the record (`inputs.tags["Name"]`, `dependencies[1]`). */
  path: string;
  kind: 'added' | 'removed' | 'changed' | 'secret changed';
  old?: unknown;
  new?: unknown;
}

interface ResourceDiff {
  kind: ResourceChangeKind;
  urn: string;
  /** How the other side's copies are told apart: `URN#N` when either side holds several. */
  key: string;
  /** A rename's former urn. */
  oldUrn?: string;
  type: string;
  oldId?: string;
  newId?: string;
  changes: FieldChange[];
}

export interface StateDiff {
  summary: Record<ResourceChangeKind, number>;
  resources: ResourceDiff[];
  pendingOperations: { added: Array<{ urn: string; type: string }>; removed: Array<{ urn: string; type: string }> };
  manifest: FieldChange[];
}

function isSecret(value: unknown): value is JsonObject {
  return isObject(value) && value[SECRET_SIGNATURE_KEY] === SECRET_SIGNATURE;
}

/** What a value shows: secrets masked wherever they are. */
function shown(value: unknown): unknown {
  if (isSecret(value)) return MASK;
  if (Array.isArray(value)) return value.map(shown);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shown(inner)]));
  return value;
}

function pathOf(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (/^[A-Za-z_$][\w$]*$/.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

/**
 * The value a secret in plaintext holds (`{"4dab…": "1b47…", "plaintext": "<JSON text>"}`), secrets
 * inside it (the no-op encrypter's, their `ciphertext` the JSON text too) opened as well; undefined
 * when it holds none that reads (a ciphertext, which only a passphrase opens).
 */
function heldValue(secret: JsonObject): { value: unknown } | undefined {
  const text = typeof secret.plaintext === 'string' ? secret.plaintext : undefined;
  if (text === undefined) return undefined;
  const unwrap = (value: unknown): unknown => {
    if (isSecret(value)) return unwrap(heldValue(value)?.value ?? (typeof value.ciphertext === 'string' ? parsed(value.ciphertext) : MASK));
    if (Array.isArray(value)) return value.map(unwrap);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, unwrap(inner)]));
    return value;
  };
  return { value: unwrap(parsed(text)) };
}

/** JSON text's value, or the text itself when it is no JSON. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Two secrets: the same value (a new nonce only), changed with both values (`reveal`, both in plaintext), or "secret changed". */
function compareSecrets(a: JsonObject, b: JsonObject, path: string, into: FieldChange[], reveal: boolean): void {
  const [old, next] = reveal ? [heldValue(a), heldValue(b)] : [];
  if (!old || !next) into.push({ path, kind: 'secret changed' });
  else if (!sameJson(old.value, next.value)) into.push({ path, kind: 'secret changed', old: old.value, new: next.value });
}

/** The leaves that differ between `a` and `b` under `path`, secrets compared but shown only when `reveal`. */
function compareValues(a: unknown, b: unknown, path: string, into: FieldChange[], reveal = false): void {
  if (sameJson(a, b)) return;
  if (isSecret(a) && isSecret(b)) return compareSecrets(a, b, path, into, reveal);
  if (isSecret(a) || isSecret(b)) {
    into.push({ path, kind: 'changed', old: shown(a), new: shown(b) });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length) into.push({ path: pathOf(path, i), kind: 'added', new: shown(b[i]) });
      else if (i >= b.length) into.push({ path: pathOf(path, i), kind: 'removed', old: shown(a[i]) });
      else compareValues(a[i], b[i], pathOf(path, i), into, reveal);
    }
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!path && IGNORED_FIELDS.has(key)) continue;
      if (!(key in b)) into.push({ path: pathOf(path, key), kind: 'removed', old: shown(a[key]) });
      else if (!(key in a)) into.push({ path: pathOf(path, key), kind: 'added', new: shown(b[key]) });
      else compareValues(a[key], b[key], pathOf(path, key), into, reveal);
    }
    return;
  }
  into.push({ path, kind: 'changed', old: shown(a), new: shown(b) });
}

interface Keyed {
  key: string;
  urn: string;
  record: JsonObject;
}

/** Each record keyed by urn, and by `URN#N` among several copies (on either side). */
function keyed(records: readonly unknown[], copiesEitherSide: Map<string, number>): Keyed[] {
  const seen = new Map<string, number>();
  const out: Keyed[] = [];
  for (const record of records) {
    if (!isObject(record) || typeof record.urn !== 'string') continue;
    const n = (seen.get(record.urn) ?? 0) + 1;
    seen.set(record.urn, n);
    out.push({ key: (copiesEitherSide.get(record.urn) ?? 0) > 1 ? `${record.urn}#${n}` : record.urn, urn: record.urn, record });
  }
  return out;
}

function copyCounts(records: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) if (isObject(record) && typeof record.urn === 'string') counts.set(record.urn, (counts.get(record.urn) ?? 0) + 1);
  return counts;
}

const text = (record: JsonObject, key: string) => (typeof record[key] === 'string' ? (record[key] as string) : undefined);

function describe(kind: ResourceChangeKind, before: Keyed | undefined, after: Keyed | undefined, reveal = false): ResourceDiff {
  const record = (after ?? before)!.record;
  const diff: ResourceDiff = { kind, urn: (after ?? before)!.urn, key: (after ?? before)!.key, type: text(record, 'type') ?? '', changes: [] };
  const oldId = before && text(before.record, 'id');
  const newId = after && text(after.record, 'id');
  if (oldId) diff.oldId = oldId;
  if (newId) diff.newId = newId;
  if (before && after) compareValues(before.record, after.record, '', diff.changes, reveal);
  return diff;
}

function pendingOf(deployment: unknown): Array<{ urn: string; type: string }> {
  const list = isObject(deployment) && Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  return list.filter(isObject).map((op) => ({ urn: isObject(op.resource) && typeof op.resource.urn === 'string' ? op.resource.urn : '', type: typeof op.type === 'string' ? op.type : '' }));
}

function deploymentOf(structure: StateStructure): unknown {
  let value: unknown = structure.root;
  for (const step of structure.deploymentPath ?? []) value = isObject(value) || Array.isArray(value) ? (value as Record<string | number, unknown>)[step] : undefined;
  return value;
}

/**
 * What changed from `before` to `after` (each a parsed state's structure). With `showSecrets`, two
 * secrets that both hold plaintext (a decrypted export, or states whose ciphertexts the caller
 * opened) are compared by their values: the same value is no change, a changed one shows both.
 */
export function diffStates(before: StateStructure, after: StateStructure, options: { showSecrets?: boolean } = {}): StateDiff {
  const reveal = options.showSecrets === true;
  const oldRecords = before.resources.map((r) => r.value);
  const newRecords = after.resources.map((r) => r.value);
  const oldCounts = copyCounts(oldRecords);
  const newCounts = copyCounts(newRecords);
  const either = new Map([...oldCounts].map(([urn, n]) => [urn, Math.max(n, newCounts.get(urn) ?? 0)]));
  for (const [urn, n] of newCounts) either.set(urn, Math.max(n, either.get(urn) ?? 0));
  const olds = keyed(oldRecords, either);
  const news = keyed(newRecords, either);
  const oldByKey = new Map(olds.map((k) => [k.key, k]));
  const newKeys = new Set(news.map((k) => k.key));
  const resources: ResourceDiff[] = [];
  const matchedOld = new Set<string>();
  const unmatchedNew: Keyed[] = [];
  for (const next of news) {
    const previous = oldByKey.get(next.key);
    if (!previous) {
      unmatchedNew.push(next);
      continue;
    }
    matchedOld.add(previous.key);
    const diff = describe('same', previous, next, reveal);
    if (diff.oldId && diff.newId && diff.oldId !== diff.newId) diff.kind = 'replaced';
    else if (diff.changes.some((change) => change.kind !== 'secret changed' || 'old' in change)) diff.kind = 'changed';
    resources.push(diff);
  }
  const gone = olds.filter((k) => !newKeys.has(k.key));
  const goneByUrn = new Map(gone.map((k) => [k.urn, k]));
  const sameResource = (a: Keyed, b: Keyed) => {
    if (text(a.record, 'type') !== text(b.record, 'type')) return false;
    const created = text(a.record, 'created');
    if (created && created === text(b.record, 'created')) return true;
    const id = text(a.record, 'id');
    return a.record.custom === true && id !== undefined && id !== '' && id === text(b.record, 'id');
  };
  for (const next of unmatchedNew) {
    const aliases = Array.isArray(next.record.aliases) ? next.record.aliases.filter((a): a is string => typeof a === 'string') : [];
    const previous = aliases.map((alias) => goneByUrn.get(alias)).find((k) => k && !matchedOld.has(k.key)) ?? gone.find((k) => !matchedOld.has(k.key) && sameResource(k, next));
    if (previous) {
      matchedOld.add(previous.key);
      const diff = describe('renamed', previous, next, reveal);
      diff.oldUrn = previous.urn;
      diff.changes = diff.changes.filter((change) => change.path !== 'urn');
      resources.push(diff);
    } else resources.push(describe('added', undefined, next));
  }
  for (const previous of olds) if (!matchedOld.has(previous.key)) resources.push(describe('removed', previous, undefined));
  const summary: Record<ResourceChangeKind, number> = { added: 0, removed: 0, renamed: 0, replaced: 0, changed: 0, same: 0 };
  for (const resource of resources) summary[resource.kind]++;
  const oldDeployment = deploymentOf(before);
  const newDeployment = deploymentOf(after);
  const opKey = (op: { urn: string; type: string }) => `${op.type} ${op.urn}`;
  const oldPending = pendingOf(oldDeployment);
  const newPending = pendingOf(newDeployment);
  const manifest: FieldChange[] = [];
  compareValues(isObject(oldDeployment) ? oldDeployment.manifest : undefined, isObject(newDeployment) ? newDeployment.manifest : undefined, 'manifest', manifest);
  return {
    summary,
    resources,
    pendingOperations: {
      added: newPending.filter((op) => !oldPending.some((o) => opKey(o) === opKey(op))),
      removed: oldPending.filter((op) => !newPending.some((o) => opKey(o) === opKey(op))),
    },
    manifest,
  };
}

const ORDER: ResourceChangeKind[] = ['added', 'removed', 'renamed', 'replaced', 'changed', 'same'];
const SIGN: Record<ResourceChangeKind, string> = { added: '+', removed: '-', renamed: '~', replaced: '+-', changed: '~', same: ' ' };

/** The summary line: `2 added, 1 changed, 40 same` (kinds with none left out; "no changes" when nothing differs). */
export function diffSummary(diff: StateDiff): string {
  const parts = ORDER.filter((kind) => diff.summary[kind] > 0).map((kind) => `${diff.summary[kind]} ${kind}`);
  const pending = diff.pendingOperations.added.length + diff.pendingOperations.removed.length;
  if (pending) parts.push(`${pending} pending ${pending === 1 ? 'operation' : 'operations'} changed`);
  return statesDiffer(diff) ? parts.join(', ') : `no changes${diff.summary.same ? ` (${diff.summary.same} same)` : ''}`;
}

/**
 * Whether a resource or a pending operation differs. The manifest (when and by which Pulumi a state
 * was written) is shown but does not count: every two checkpoints differ in it.
 */
export function statesDiffer(diff: StateDiff): boolean {
  return ORDER.some((kind) => kind !== 'same' && diff.summary[kind] > 0) || diff.pendingOperations.added.length + diff.pendingOperations.removed.length > 0;
}

const value = (v: unknown) => (v === undefined ? 'undefined' : JSON.stringify(v));

function changeLine(change: FieldChange): string {
  if (change.kind === 'secret changed') return `~ ${change.path}: ${'old' in change ? `[secret] ${value(change.old)} => ${value(change.new)}` : '[secret changed]'}`;
  if (change.kind === 'added') return `+ ${change.path}: ${value(change.new)}`;
  if (change.kind === 'removed') return `- ${change.path}: ${value(change.old)}`;
  return `~ ${change.path}: ${value(change.old)} => ${value(change.new)}`;
}

function resourceLines(resource: ResourceDiff): string[] {
  let head = `${SIGN[resource.kind]} ${resource.key}`;
  if (resource.kind === 'renamed') head = `~ ${resource.oldUrn} => ${resource.key} (renamed)`;
  else if (resource.kind === 'replaced') head += ` (replaced: id ${resource.oldId} => ${resource.newId})`;
  else if (resource.kind === 'added' || resource.kind === 'removed') head += ` (${resource.kind})`;
  return [head, ...resource.changes.filter((c) => resource.kind !== 'replaced' || c.path !== 'id').map((c) => `    ${changeLine(c)}`)];
}

/** The text form, read like `pulumi preview --diff`: the summary, then a line per resource and its changed leaves. */
export function diffText(diff: StateDiff, options: { showSame?: boolean } = {}): string {
  const lines = [diffSummary(diff)];
  for (const kind of ORDER) {
    if (kind === 'same' && !options.showSame) continue;
    for (const resource of diff.resources.filter((r) => r.kind === kind)) lines.push(...resourceLines(resource));
  }
  for (const op of diff.pendingOperations.added) lines.push(`+ pending operation: ${op.type} ${op.urn}`);
  for (const op of diff.pendingOperations.removed) lines.push(`- pending operation: ${op.type} ${op.urn}`);
  for (const change of diff.manifest) lines.push(changeLine(change));
  return lines.join('\n');
}

/** The Markdown form, for a pull request's comment: the summary, then the text form in a `diff` block. */
export function diffMarkdown(diff: StateDiff, options: { showSame?: boolean; title?: string } = {}): string {
  const body = diffText(diff, options).split('\n').slice(1);
  const heading = `**${options.title ? `${options.title}: ` : ''}${diffSummary(diff)}**`;
  return body.length ? `${heading}\n\n\`\`\`diff\n${body.join('\n')}\n\`\`\`` : heading;
}
