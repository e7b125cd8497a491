/**
 * Compares two state files by meaning, allowing only Pulumi's documented normalisations: plugin
 * paths and versions in the manifest, secrets re-encrypted (a secret compares as "<secret>"), a
 * `secrets_providers` block Pulumi adds, the checkpoint `config` Pulumi drops. Beyond those, what
 * Go's `omitempty` makes the same is the same (an absent member and a zero value), members Pulumi
 * does not declare are ignored (it drops them), and object member order never matters.
 */
import { SECRET_SIG, SIG_KEY } from './generate';
import { RESOURCE_FIELD_ORDER } from '../../../shared/state/surgery/document';

type Rec = Record<string, unknown>;

const isObject = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** ResourceV3's members and whether Go writes their zero value (only `urn`, `custom` and `type` are not `omitempty`). */
const RESOURCE_FIELDS = new Set<string>(RESOURCE_FIELD_ORDER);

function isZero(value: unknown): boolean {
  return value === undefined || value === null || value === false || value === '' || (Array.isArray(value) && value.length === 0) || (isObject(value) && Object.keys(value).length === 0);
}

function secrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(secrets);
  if (!isObject(value)) return value;
  if (value[SIG_KEY] === SECRET_SIG) return '<secret>';
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, secrets(v)]));
}

export interface NormalizeOptions {
  /** Collapse repeated replaceWith entries (Pulumi's rename/move duplicate them: a named deviation). */
  dedupeReplaceWith?: boolean;
}

export function normalizeRecord(record: Rec, options: NormalizeOptions = {}): Rec {
  const out: Rec = {};
  for (const [key, value] of Object.entries(record)) {
    if (!RESOURCE_FIELDS.has(key)) continue;
    if (key === 'urn' || key === 'type') out[key] = value;
    else if (key === 'custom') out[key] = value === true;
    else if (key === 'propertyDependencies' && isObject(value)) {
      const kept = Object.entries(value).filter(([, list]) => Array.isArray(list) && list.length > 0);
      if (kept.length) out[key] = Object.fromEntries(kept);
    } else if (key === 'replaceWith' && !isZero(value)) {
      const list = Array.isArray(value) ? value : [value];
      out[key] = options.dedupeReplaceWith ? [...new Set(list)] : list;
    } else if (!isZero(value)) out[key] = secrets(value);
  }
  if (!('custom' in out)) out.custom = false;
  return out;
}

export interface Canonical {
  version: unknown;
  features: unknown;
  manifest: unknown;
  resources: Rec[];
  pending: unknown[];
}

export function canonical(text: string, options: NormalizeOptions = {}): Canonical {
  const root = JSON.parse(text) as Rec;
  let deployment: Rec;
  if (isObject(root.checkpoint)) deployment = (root.checkpoint.latest as Rec) ?? {};
  else if (isObject(root.deployment)) deployment = root.deployment;
  else deployment = root;
  const manifest = isObject(deployment.manifest) ? deployment.manifest : {};
  const plugins = Array.isArray(manifest.plugins) ? manifest.plugins.map((p: Rec) => ({ name: p.name, kind: p.kind, version: String(p.version ?? '').replace(/^v/, '') })) : [];
  return {
    version: root.version,
    features: Array.isArray(root.features) && root.features.length ? root.features : undefined,
    // Go's zero time is what an absent manifest time reads as.
    manifest: { time: manifest.time === '0001-01-01T00:00:00Z' ? '' : (manifest.time ?? ''), magic: manifest.magic ?? '', version: manifest.version ?? '', plugins },
    resources: (Array.isArray(deployment.resources) ? deployment.resources : []).map((r: Rec) => normalizeRecord(r, options)),
    pending: (Array.isArray(deployment.pending_operations) ? deployment.pending_operations : []).map((op: Rec) => ({
      type: op.type,
      resource: isObject(op.resource) ? normalizeRecord(op.resource, options) : op.resource,
    })),
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}

/** The first difference between two canonical states, or undefined when they mean the same. */
export function difference(ours: Canonical, theirs: Canonical): string | undefined {
  if (JSON.stringify(ours.version) !== JSON.stringify(theirs.version)) return `version: ours ${String(ours.version)}, Pulumi's ${String(theirs.version)}`;
  if (JSON.stringify(ours.features) !== JSON.stringify(theirs.features)) return `features: ours ${JSON.stringify(ours.features)}, Pulumi's ${JSON.stringify(theirs.features)}`;
  if (JSON.stringify(sortKeys(ours.manifest)) !== JSON.stringify(sortKeys(theirs.manifest))) return `manifest: ours ${JSON.stringify(ours.manifest)}, Pulumi's ${JSON.stringify(theirs.manifest)}`;
  const a = ours.resources.map((r) => JSON.stringify(sortKeys(r)));
  const b = theirs.resources.map((r) => JSON.stringify(sortKeys(r)));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `resource ${i}: ours ${a[i] ?? '(none)'}\n  Pulumi's ${b[i] ?? '(none)'}`;
  }
  if (JSON.stringify(sortKeys(ours.pending)) !== JSON.stringify(sortKeys(theirs.pending)))
    return `pending operations: ours ${JSON.stringify(ours.pending)}, Pulumi's ${JSON.stringify(theirs.pending)}`;
  return undefined;
}
