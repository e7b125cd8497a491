/**
 * A mutation fuzzer over real state documents: each mutant is a real fixture with one to three
 * seeded edits of the kinds that break (or do not break) Pulumi's loader: records dropped,
 * duplicated, reordered and marked `delete`; parent, dependency, property-dependency, `deletedWith`,
 * `replaceWith` and provider references dangled or crossed; versions, features, magic, types and ids
 * changed; pending operations and aliases added; property values given every asset, archive, secret
 * and resource-reference shape, empty strings included.
 *
 * Deterministic: the same seed and count give the same mutants.
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../helpers/prng';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface Mutant {
  /** `<base>#<index>`: where it came from. */
  name: string;
  mutations: string[];
  text: string;
}

export interface Base {
  name: string;
  text: string;
}

const SIG = '4dabf18193072939515e22adb298388d';
const ASSET = 'c44067f5952c0a294b673a41bacd8c17';
const ARCHIVE = '0def7320c3a5731c473e5ecbe6d01bc7';
const SECRET = '1b47061264138c4ac30d75fd1eb44270';
const REFERENCE = '5cf8f73096256a8f31e491e813e4eb8e';
const FLOAT = '8ad145fe-0d11-4827-bfd7-1abcbf086f5c';
const BYTES = '803fd3297a5875dc03ca845dda5d2a98';

/** Special property values, well-formed and not, as Pulumi might meet them. */
function specialValues(urns: string[], pick: <T>(items: T[]) => T): unknown[] {
  const urn = urns.length ? pick(urns) : 'urn:pulumi:dev::p::x:y:Z::z';
  return [
    { [SIG]: ASSET, hash: 'abc', text: 'hello' },
    { [SIG]: ASSET, path: 'index.html', text: '', uri: '' },
    { [SIG]: ASSET, path: 'a.txt', text: 'both' },
    { [SIG]: ASSET, text: '', path: '', uri: '' },
    { [SIG]: ASSET, uri: 'https://example.com/a', extra: 1 },
    { [SIG]: ASSET, text: 5 },
    { [SIG]: ASSET },
    { [SIG]: ARCHIVE, assets: {}, path: 'www', uri: '' },
    { [SIG]: ARCHIVE, assets: { 'a.txt': { [SIG]: ASSET, text: 'a' } } },
    { [SIG]: ARCHIVE, assets: { 'a.txt': 'not an asset' } },
    { [SIG]: ARCHIVE, assets: 'nope' },
    { [SIG]: ARCHIVE, path: 'dir', assets: 'nope' },
    { [SIG]: ARCHIVE, path: '', uri: '', assets: { b: { [SIG]: ARCHIVE, path: 'x' } } },
    { [SIG]: ARCHIVE, path: 7 },
    { [SIG]: SECRET, ciphertext: 'v1:abc' },
    { [SIG]: SECRET, plaintext: '"shh"' },
    { [SIG]: SECRET, plaintext: '' },
    { [SIG]: SECRET, ciphertext: '' },
    { [SIG]: SECRET, ciphertext: 'a', plaintext: '"b"' },
    { [SIG]: SECRET },
    { [SIG]: SECRET, ciphertext: 3 },
    { [SIG]: REFERENCE, urn },
    { [SIG]: REFERENCE, urn, id: 'i-123', packageVersion: '1.0.0' },
    { [SIG]: REFERENCE, urn: '' },
    { [SIG]: REFERENCE, id: 'x' },
    { [SIG]: REFERENCE, urn, id: 5 },
    { [SIG]: REFERENCE, urn, id: { V: null } },
    { [SIG]: REFERENCE, urn, packageVersion: 2 },
    { [SIG]: FLOAT, value: '400921fb54442d18' },
    { [SIG]: FLOAT, value: 'xyz' },
    { [SIG]: FLOAT, value: '1' },
    { [SIG]: BYTES, value: 'aGVsbG8=' },
    { [SIG]: BYTES, value: 'aGVsbG8' },
    { [SIG]: BYTES, value: 4 },
    { [SIG]: 'ffffffffffffffffffffffffffffffff', value: 1 },
    { [SIG]: '' },
    { nested: [{ [SIG]: ASSET, text: '' }] },
  ];
}

/** The deployment object inside a document of any shape, or undefined. */
function deploymentOf(root: Json): Json | undefined {
  if (isObject(root.deployment)) return root.deployment;
  if (isObject(root.checkpoint)) return isObject(root.checkpoint.latest) ? root.checkpoint.latest : undefined;
  if ('latest' in root) return isObject(root.latest) ? root.latest : undefined;
  if ('resources' in root || 'manifest' in root) return root;
  return undefined;
}

const magicOf = (version: string): string => createHash('sha256').update(version).digest('hex');

type Mutation = (doc: Json, random: () => number) => string | undefined;

export function mutate(base: Base, seed: number, index: number): Mutant {
  const random = mulberry32(seed * 1_000_003 + index);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)];
  const doc = JSON.parse(base.text) as Json;
  const deployment = deploymentOf(doc);
  const resources = (deployment && Array.isArray(deployment.resources) ? deployment.resources : []) as Json[];
  const urns = resources.map((r) => r.urn).filter((u): u is string => typeof u === 'string');
  const providers = resources.filter((r) => typeof r.type === 'string' && r.type.startsWith('pulumi:providers:'));
  const record = (): Json | undefined => (resources.length ? pick(resources) : undefined);
  const dangling = (): string => `urn:pulumi:dev::gone::x:y:Missing::m${Math.floor(random() * 1000)}`;
  const target = (): string => (random() < 0.3 ? dangling() : urns.length ? pick(urns) : dangling());

  const mutations: Record<string, Mutation> = {
    'drop-record': () => (resources.length ? (resources.splice(Math.floor(random() * resources.length), 1), 'drop-record') : undefined),
    'duplicate-record': () => {
      const r = record();
      if (!r) return undefined;
      resources.splice(Math.floor(random() * (resources.length + 1)), 0, structuredClone(r));
      return 'duplicate-record';
    },
    'swap-records': () => {
      if (resources.length < 2) return undefined;
      const i = Math.floor(random() * resources.length);
      const j = Math.floor(random() * resources.length);
      [resources[i], resources[j]] = [resources[j], resources[i]];
      return 'swap-records';
    },
    'mark-delete': () => {
      const r = record();
      if (!r) return undefined;
      r.delete = random() < 0.8 ? true : pick([false, 'yes', null]);
      return 'mark-delete';
    },
    parent: () => {
      const r = record();
      if (!r) return undefined;
      r.parent = random() < 0.1 ? pick(['', 5, 'not-a-urn']) : target();
      return 'parent';
    },
    dependency: () => {
      const r = record();
      if (!r) return undefined;
      r.dependencies = [...(Array.isArray(r.dependencies) ? r.dependencies : []), target()];
      return 'dependency';
    },
    'property-dependency': () => {
      const r = record();
      if (!r) return undefined;
      const existing = isObject(r.propertyDependencies) ? r.propertyDependencies : {};
      r.propertyDependencies = { ...existing, [pick(['a', 'b', 'arn'])]: random() < 0.1 ? null : [target()] };
      return 'property-dependency';
    },
    'deleted-with': () => {
      const r = record();
      if (!r) return undefined;
      r.deletedWith = random() < 0.1 ? '' : target();
      return 'deleted-with';
    },
    'replace-with': () => {
      const r = record();
      if (!r) return undefined;
      r.replaceWith = [target()];
      return 'replace-with';
    },
    provider: () => {
      const r = record();
      if (!r) return undefined;
      const provider = providers.length ? pick(providers) : undefined;
      const choices = [
        provider ? `${provider.urn}::${provider.id}` : `${dangling()}::id`,
        provider ? `${provider.urn}::other-id` : 'no-separator',
        `urn:pulumi:dev::p::pulumi:providers:aws::gone::123`,
        'not-a-reference',
        `${target()}::x`,
        provider ? `${provider.urn}::04da6b54-80e4-46f7-96ec-b56ff0331ba9` : '',
      ];
      r.provider = pick(choices);
      return 'provider';
    },
    version: () => {
      const holder = 'deployment' in doc || 'checkpoint' in doc ? doc : undefined;
      if (!holder) return undefined;
      holder.version = pick([0, 1, 2, 3, 4, 5, -1, 3, 4]);
      return `version=${holder.version}`;
    },
    features: () => {
      if (!('deployment' in doc || 'checkpoint' in doc)) return undefined;
      doc.features = pick([['taint'], ['time-travel'], [], ['refreshBeforeUpdate', 'views'], ['snippets-prototype', 'hooks'], null]);
      if (random() < 0.5) doc.version = 4;
      return 'features';
    },
    magic: () => {
      if (!deployment) return undefined;
      const manifest = isObject(deployment.manifest) ? deployment.manifest : (deployment.manifest = {});
      const choice = pick(['corrupt', 'empty', 'drop-version', 'recompute', 'drop-manifest']);
      if (choice === 'corrupt') manifest.magic = `0${String(manifest.magic ?? '').slice(1)}`;
      if (choice === 'empty') manifest.magic = '';
      if (choice === 'drop-version') delete manifest.version;
      if (choice === 'recompute') {
        manifest.version = `v3.${Math.floor(random() * 300)}.0`;
        manifest.magic = magicOf(manifest.version as string);
      }
      if (choice === 'drop-manifest') delete deployment.manifest;
      return `magic:${choice}`;
    },
    type: () => {
      const r = record();
      if (!r) return undefined;
      const choice = pick(['delete', 'empty', 'provider', 'number']);
      if (choice === 'delete') delete r.type;
      if (choice === 'empty') r.type = '';
      if (choice === 'provider') r.type = 'pulumi:providers:aws';
      if (choice === 'number') r.type = 3;
      return `type:${choice}`;
    },
    id: () => {
      const r = record();
      if (!r) return undefined;
      const choice = pick(['component-with-id', 'drop-id', 'number', 'empty']);
      if (choice === 'component-with-id') {
        r.custom = false;
        r.id = 'some-id';
      }
      if (choice === 'drop-id') delete r.id;
      if (choice === 'number') r.id = 42;
      if (choice === 'empty') r.id = '';
      return `id:${choice}`;
    },
    urn: () => {
      const r = record();
      if (!r) return undefined;
      const choice = pick(['delete', 'empty', 'invalid', 'other-stack']);
      if (choice === 'delete') delete r.urn;
      if (choice === 'empty') r.urn = '';
      if (choice === 'invalid') r.urn = 'not:a:urn';
      if (choice === 'other-stack' && typeof r.urn === 'string') r.urn = r.urn.replace(/^urn:pulumi:[^:]*::/, 'urn:pulumi:elsewhere::');
      return `urn:${choice}`;
    },
    'pending-operation': () => {
      if (!deployment) return undefined;
      const r = record();
      const operation = { resource: r ? structuredClone(r) : { urn: dangling(), type: 'x:y:Z', custom: true }, type: pick(['creating', 'updating', 'deleting', 'reading', 'importing', 'bogus']) };
      deployment.pending_operations = [...(Array.isArray(deployment.pending_operations) ? deployment.pending_operations : []), operation];
      return 'pending-operation';
    },
    alias: () => {
      const r = record();
      const other = record();
      if (!r || !other) return undefined;
      const alias = random() < 0.5 && Array.isArray(other.aliases) && other.aliases.length ? other.aliases[0] : pick([dangling(), 'urn:pulumi:dev::p::x:y:Z::shared-alias']);
      r.aliases = [...(Array.isArray(r.aliases) ? r.aliases : []), alias];
      if (random() < 0.5) other.aliases = [...(Array.isArray(other.aliases) ? other.aliases : []), alias];
      return 'alias';
    },
    'property-value': () => {
      const r = record();
      if (!r) return undefined;
      const section = pick(['inputs', 'outputs']);
      const holder = isObject(r[section]) ? (r[section] as Json) : (r[section] = {});
      holder[pick(['source', 'code', 'ref', 'secretThing'])] = structuredClone(pick(specialValues(urns, pick)));
      return `property-value:${section}`;
    },
  };
  const names = Object.keys(mutations);
  const applied: string[] = [];
  const count = 1 + Math.floor(random() * 3);
  for (let attempt = 0; applied.length < count && attempt < 10; attempt++) {
    const label = mutations[pick(names)](doc, random);
    if (label) applied.push(label);
  }
  const text = random() < 0.2 ? JSON.stringify(doc) : JSON.stringify(doc, null, 4);
  return { name: `${base.name}#${index}`, mutations: applied, text };
}

/** Candidate reductions of a disagreeing document: each drops one record, one pending operation or one property. */
export function reductions(text: string): string[] {
  const doc = JSON.parse(text) as Json;
  const out: string[] = [];
  const deployment = deploymentOf(doc);
  if (!deployment) return out;
  const resources = Array.isArray(deployment.resources) ? (deployment.resources as Json[]) : [];
  const emit = (): void => void out.push(JSON.stringify(doc, null, 4));
  // Halves first, so a 117-record file shrinks in a few rounds.
  for (let size = Math.floor(resources.length / 2); size >= 1; size = Math.floor(size / 2)) {
    for (let start = 0; start + size <= resources.length; start += size) {
      const removed = resources.splice(start, size);
      emit();
      resources.splice(start, 0, ...removed);
    }
  }
  if (Array.isArray(deployment.pending_operations) && deployment.pending_operations.length) {
    const saved = deployment.pending_operations;
    delete deployment.pending_operations;
    emit();
    deployment.pending_operations = saved;
  }
  for (const resource of resources) {
    for (const key of ['inputs', 'outputs'] as const) {
      const props = resource[key];
      if (!isObject(props)) continue;
      for (const name of Object.keys(props)) {
        const value = props[name];
        delete props[name];
        emit();
        props[name] = value;
      }
    }
  }
  return out;
}
