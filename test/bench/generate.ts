/**
 * Deterministic generator of realistic synthetic state files (`pulumi stack export` shape):
 * a stack resource, providers, component parent chains, custom resources with provider
 * references, DAG dependencies and property dependencies, nested inputs/outputs with some
 * 1–10 KB blobs, secrets and resource references. Same seed, same bytes.
 */
import { createHash } from 'node:crypto';
import { mulberry32 } from '../helpers/prng';

export interface GenerateOptions {
  resources: number;
  seed?: number;
  /** Deliberate problems per 1000 resources (missing references), default 1. */
  problemsPerThousand?: number;
  /** The stack and project the urns name: `dev` and `bench` unless given. */
  stack?: string;
  project?: string;
}

const SIG = '4dabf18193072939515e22adb298388d';
const TYPES = ['aws:s3/bucket:Bucket', 'aws:ec2/instance:Instance', 'aws:iam/role:Role', 'kubernetes:core/v1:ConfigMap', 'aws:lambda/function:Function'];

export function generateState(options: GenerateOptions): string {
  return JSON.stringify({ version: 3, deployment: generateDeployment(options) }, null, 4);
}

/**
 * The deployment alone (what a DIY checkpoint holds as `latest`). The same seed with more resources
 * gives the same first resources: a stack that grows.
 */
export function generateDeployment(options: GenerateOptions): Record<string, unknown> {
  const rand = mulberry32(options.seed ?? 42);
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)];
  const stack = options.stack ?? 'dev';
  const project = options.project ?? 'bench';
  const prefix = `urn:pulumi:${stack}::${project}::`;
  const stackUrn = `${prefix}pulumi:pulumi:Stack::${project}-${stack}`;
  const resources: Array<Record<string, unknown>> = [{ urn: stackUrn, custom: false, type: 'pulumi:pulumi:Stack', outputs: {} }];
  const providers: string[] = [];
  for (const pkg of ['aws', 'kubernetes']) {
    const urn = `${prefix}pulumi:providers:${pkg}::default`;
    const id = `${hex(rand, 8)}-${hex(rand, 4)}-${hex(rand, 4)}`;
    resources.push({ urn, custom: true, id, type: `pulumi:providers:${pkg}`, inputs: { version: '6.0.0' }, outputs: { version: '6.0.0' } });
    providers.push(`${urn}::${id}`);
  }
  const components: Array<{ urn: string; qualified: string }> = [];
  const problems = options.problemsPerThousand ?? 1;
  while (resources.length < options.resources) {
    const n = resources.length;
    if (rand() < 0.1) {
      const parent = components.length && rand() < 0.5 ? pick(components) : undefined;
      const type = `my:index:Component${n % 7}`;
      const qualified = parent ? `${parent.qualified}$${type}` : type;
      const urn = `${prefix}${qualified}::comp-${n}`;
      resources.push({ urn, custom: false, type, parent: parent?.urn ?? stackUrn });
      components.push({ urn, qualified });
      continue;
    }
    const type = pick(TYPES);
    const parent = components.length && rand() < 0.6 ? pick(components) : undefined;
    const qualified = parent ? `${parent.qualified}$${type}` : type;
    const urn = `${prefix}${qualified}::res-${n}`;
    const dependencies: string[] = [];
    const dependencyCount = Math.floor(rand() * 4);
    for (let d = 0; d < dependencyCount && n > 3; d++) dependencies.push(resources[3 + Math.floor(rand() * (n - 3))].urn as string);
    if (rand() * 1000 < problems) dependencies.push(`${prefix}${type}::missing-${n}`);
    const id = `${type.split(':')[1].split('/')[0]}-${hex(rand, 12)}`;
    const inputs: Record<string, unknown> = {
      name: `res-${n}`,
      tags: { env: stack, owner: pick(['alice', 'bob', 'carol']), index: String(n) },
      settings: { enabled: rand() < 0.5, retries: Math.floor(rand() * 10), nested: { list: [1, 2, 3].map(() => hex(rand, 6)) } },
    };
    if (rand() < 0.1) inputs.blob = blob(rand, 1024 + Math.floor(rand() * 9 * 1024));
    if (rand() < 0.2) inputs.password = { [SIG]: '1b47061264138c4ac30d75fd1eb44270', ciphertext: `v1:${b64(rand, 16)}:${b64(rand, 48)}` };
    if (dependencies.length && rand() < 0.3) inputs.target = { [SIG]: '5cf8f73096256a8f31e491e813e4eb8e', urn: dependencies[0], id: '', packageVersion: '' };
    const outputs: Record<string, unknown> = { ...inputs, id, arn: `arn:aws:${type}:${id}`, createdAt: '2024-05-01T12:00:00Z' };
    const resource: Record<string, unknown> = {
      urn,
      custom: true,
      id,
      type,
      inputs,
      outputs,
      parent: parent?.urn ?? stackUrn,
      provider: type.startsWith('kubernetes') ? providers[1] : providers[0],
      dependencies,
      propertyDependencies: { name: [], tags: dependencies.slice(0, 1) },
    };
    if (rand() < 0.05) resource.protect = true;
    resources.push(resource);
  }
  const version = 'v3.150.0';
  return {
    manifest: { time: '2026-01-01T00:00:00.000Z', magic: createHash('sha256').update(version).digest('hex'), version },
    secrets_providers: { type: 'passphrase', state: { salt: `v1:${b64(rand, 12)}` } },
    resources,
    metadata: {},
  };
}

function hex(rand: () => number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[Math.floor(rand() * 16)];
  return out;
}

function b64(rand: () => number, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(rand() * 64)];
  return out;
}

function blob(rand: () => number, length: number): string {
  const words = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', '{"k":"v"}', 'line\n', 'tab\t', 'quote"'];
  let out = '';
  while (out.length < length) out += words[Math.floor(rand() * words.length)] + ' ';
  return out.slice(0, length);
}

export interface GrowOptions {
  /** How many resources the grown export has. */
  resources: number;
  /**
   * Every `errorEvery`-th record gets a real integrity error (a dependency on a urn that is not in
   * the file, a provider reference with a wrong id, or a missing type, in turn); 0 = none.
   */
  errorEvery?: number;
}

/**
 * Grows a real `pulumi stack export` by replicating its resources under new urns: copy k renames
 * every resource `…::name` to `…::name-k` and points its parent, dependencies, property
 * dependencies, deletedWith and provider reference at the copies of copy k, so every copy is as
 * consistent as the original. The root stack resource stays single and shared. Same input, same bytes.
 */
export function growRealExport(baseText: string, options: GrowOptions): string {
  const base = JSON.parse(baseText) as { version: number; deployment: { resources: Array<Record<string, unknown>> } & Record<string, unknown> };
  const originals = base.deployment.resources;
  const root = originals.find((r) => r.type === 'pulumi:pulumi:Stack');
  const replicated = originals.filter((r) => r !== root);
  const out: Array<Record<string, unknown>> = [...originals];
  for (let copy = 1; out.length < options.resources; copy++) {
    const rename = new Map<string, string>();
    for (const r of replicated) rename.set(r.urn as string, `${r.urn as string}-${copy}`);
    const mapUrn = (urn: unknown) => (typeof urn === 'string' ? (rename.get(urn) ?? urn) : urn);
    for (const r of replicated) {
      if (out.length >= options.resources) break;
      const next: Record<string, unknown> = { ...r, urn: mapUrn(r.urn) };
      if (r.parent !== undefined) next.parent = mapUrn(r.parent);
      if (Array.isArray(r.dependencies)) next.dependencies = r.dependencies.map(mapUrn);
      if (r.deletedWith !== undefined) next.deletedWith = mapUrn(r.deletedWith);
      if (r.propertyDependencies && typeof r.propertyDependencies === 'object') {
        next.propertyDependencies = Object.fromEntries(Object.entries(r.propertyDependencies as Record<string, unknown>).map(([key, list]) => [key, Array.isArray(list) ? list.map(mapUrn) : list]));
      }
      if (typeof r.provider === 'string') {
        const split = r.provider.lastIndexOf('::');
        next.provider = `${mapUrn(r.provider.slice(0, split)) as string}${r.provider.slice(split)}`;
      }
      out.push(next);
    }
  }
  const every = options.errorEvery ?? 0;
  if (every > 0) {
    let kind = 0;
    for (let i = every - 1; i < out.length; i += every) {
      const record = { ...out[i] };
      if (record.type === 'pulumi:pulumi:Stack') continue;
      switch (kind++ % 3) {
        case 0:
          record.dependencies = [...(Array.isArray(record.dependencies) ? record.dependencies : []), `${record.urn as string}-gone`];
          break;
        case 1:
          record.provider = typeof record.provider === 'string' ? `${record.provider.slice(0, record.provider.lastIndexOf('::'))}::wrong-id` : undefined;
          if (record.provider === undefined) {
            delete record.provider;
            record.dependencies = [`${record.urn as string}-gone`];
          }
          break;
        default:
          delete record.type;
      }
      out[i] = record;
    }
  }
  return JSON.stringify({ ...base, deployment: { ...base.deployment, resources: out } }, null, 4);
}
