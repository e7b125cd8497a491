/**
 * Seeded state documents for the surgery tests: a root stack, providers, components with nested
 * children, custom resources with dependencies, property dependencies, deletedWith and replaceWith,
 * protect and taint flags, replaced copies pending deletion, pending operations and plaintext
 * secrets under a passphrase secrets provider whose passphrase is "test". Every document passes
 * Pulumi's integrity check; `breakOrder` derives ones that need `state repair`.
 */
import { mulberry32 } from '../../helpers/prng';

/** The passphrase provider state for the passphrase "test" (PBKDF2-SHA256, 1e6 rounds, AES-256-GCM of "pulumi"). */
export const TEST_SECRETS_PROVIDERS = { type: 'passphrase', state: { salt: 'v1:cXVvdGFzdDg=:v1:cXVvdGEtc3RhdGUh:B1L8P7IhaDolGKTIDpQdrkj7q2iW6Q==' } };
export const SECRET_SIG = '1b47061264138c4ac30d75fd1eb44270';
export const SIG_KEY = '4dabf18193072939515e22adb298388d';

export interface Random {
  next(): number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  subset<T>(list: readonly T[], max: number): T[];
}

export function random(seed: number): Random {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (list) => list[int(list.length)],
    chance: (p) => next() < p,
    subset: (list, max) => {
      const copy = [...list];
      const out = [];
      const count = 1 + int(Math.min(max, copy.length));
      for (let i = 0; i < count && copy.length; i++) out.push(copy.splice(int(copy.length), 1)[0]);
      return out;
    },
  };
}

type Rec = Record<string, unknown>;

export interface GeneratedState {
  /** The deployment (manifest, secrets_providers, resources, pending_operations?). */
  deployment: Rec;
  features: string[];
}

export function generateDeployment(seed: number, options: { stack?: string; project?: string; size?: number; secrets?: boolean } = {}): GeneratedState {
  const r = random(seed);
  const stack = options.stack ?? 's';
  const project = options.project ?? 'p';
  const size = options.size ?? 8 + r.int(14);
  const urnOf = (type: string, name: string) => `urn:pulumi:${stack}::${project}::${type}::${name}`;
  const resources: Rec[] = [];
  const root = urnOf('pulumi:pulumi:Stack', `${project}-${stack}`);
  resources.push({ urn: root, custom: false, type: 'pulumi:pulumi:Stack', outputs: { endpoint: `https://${seed}.example` } });
  const providers: Rec[] = [];
  const packages = ['random', 'aws', 'tls'].slice(0, 1 + r.int(3));
  for (const pkg of packages) {
    const provider = {
      urn: urnOf(`pulumi:providers:${pkg}`, `default_4_${r.int(9)}_0`),
      custom: true,
      id: `prov-${pkg}-${seed}`,
      type: `pulumi:providers:${pkg}`,
      inputs: { version: '4.0.0' },
      outputs: { version: '4.0.0' },
    };
    providers.push(provider);
    resources.push(provider);
  }
  const components: Array<{ urn: string; qualified: string }> = [];
  const customs: string[] = [];
  const features = new Set<string>();
  for (let i = 0; i < size; i++) {
    const parentChoices = [{ urn: root, qualified: '' }, ...components];
    const parent = r.chance(0.5) ? r.pick(parentChoices) : { urn: root, qualified: '' };
    const makeComponent = r.chance(0.25);
    const baseType = makeComponent ? `my:index:Comp${r.int(3)}` : `${r.pick(packages)}:index/thing:Thing${r.int(4)}`;
    const qualified = parent.qualified ? `${parent.qualified}$${baseType}` : baseType;
    const name = `res-${seed}-${i}`;
    const urn = urnOf(qualified, name);
    const record: Rec = { urn, custom: !makeComponent, type: baseType };
    if (!makeComponent) {
      const pkg = baseType.split(':')[0];
      const provider = providers.find((p) => p.type === `pulumi:providers:${pkg}`)!;
      record.id = `id-${seed}-${i}`;
      record.inputs = { name, size: r.int(100) };
      record.outputs = { name, size: r.int(100), arn: `arn:${seed}:${i}` };
      if (options.secrets && r.chance(0.3)) (record.outputs as Rec).password = { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(`secret-${seed}-${i}`) };
      record.provider = `${String(provider.urn)}::${String(provider.id)}`;
    }
    record.parent = parent.urn;
    const earlier = customs.concat(components.map((c) => c.urn));
    if (earlier.length && r.chance(0.6)) {
      const deps = r.subset(earlier, 3);
      record.dependencies = deps;
      if (r.chance(0.6)) record.propertyDependencies = { size: deps.slice(0, 1), name: deps.slice(1) };
    }
    if (earlier.length && r.chance(0.12)) record.deletedWith = r.pick(earlier);
    if (earlier.length && r.chance(0.1)) {
      record.replaceWith = r.subset(earlier, 2);
      features.add('replaceWith');
    }
    if (r.chance(0.15)) record.protect = true;
    if (r.chance(0.1)) {
      record.taint = true;
      features.add('taint');
    }
    if (r.chance(0.1)) record.aliases = [urnOf(qualified, `old-${name}`)];
    resources.push(record);
    if (makeComponent) components.push({ urn, qualified });
    else customs.push(urn);
  }
  // Replacements in flight: a copy pending deletion after the live record.
  for (const urn of r.chance(0.5) ? r.subset(customs, 2) : []) {
    const live = resources.find((x) => x.urn === urn)!;
    resources.push({ ...live, id: `${String(live.id)}-old`, delete: true, protect: undefined, taint: undefined, replaceWith: undefined, aliases: undefined });
  }
  const deployment: Rec = {
    manifest: { time: '2026-01-01T00:00:00Z', magic: '2cd9e7e4e0b3e8f3c0f1f2f1b8f9a4e9b8ef6b5f0e2b4b1c9a4d3e2f1a0b9c8d7', version: 'v3.274.1' },
    ...(options.secrets ? { secrets_providers: TEST_SECRETS_PROVIDERS } : {}),
    resources: resources.map((x) => JSON.parse(JSON.stringify(x)) as Rec),
  };
  (deployment.manifest as Rec).magic = '';
  (deployment.manifest as Rec).version = '';
  if (r.chance(0.4) && customs.length) {
    deployment.pending_operations = r.subset(customs, 2).map((urn, k) => {
      const live = resources.find((x) => x.urn === urn)!;
      return { resource: { ...live, urn: k === 0 && r.chance(0.5) ? urnOf('random:index/thing:Thing0', `pending-${seed}`) : urn }, type: r.pick(['creating', 'updating', 'deleting']) };
    });
  }
  return { deployment, features: [...features].sort() };
}

/** A DIY checkpoint for `organization/<project>/<stack>`, minified or indented. */
export function checkpointText(state: GeneratedState, options: { stack?: string; project?: string; minified?: boolean; config?: boolean } = {}): string {
  const features = state.features;
  const root: Rec = { version: features.length ? 4 : 3 };
  if (features.length) root.features = features;
  root.checkpoint = { stack: `organization/${options.project ?? 'p'}/${options.stack ?? 's'}`, ...(options.config ? { config: { 'p:region': 'eu-west-1' } } : {}), latest: state.deployment };
  return options.minified ? JSON.stringify(root) : `${JSON.stringify(root, null, 4)}\n`;
}

/** A copy whose records are out of order (children before parents) or reference a resource that is gone. */
export function breakOrder(deployment: Rec, seed: number): Rec {
  const r = random(seed);
  const resources = [...(deployment.resources as Rec[])];
  const kind = r.int(3);
  if (kind === 0 || resources.length < 4) {
    // Move a late record to the front.
    const from = 2 + r.int(resources.length - 2);
    const [moved] = resources.splice(from, 1);
    resources.splice(r.int(2), 0, moved);
  } else if (kind === 1) {
    // Reverse a stretch.
    const start = 1 + r.int(resources.length - 2);
    const stretch = resources.splice(start, 2 + r.int(4)).reverse();
    resources.splice(start, 0, ...stretch);
  } else {
    // Drop a component or custom (not a provider): its dependents now dangle.
    const candidates = resources.map((_, i) => i).filter((i) => i > 0 && !String(resources[i].type).startsWith('pulumi:providers:') && resources[i].delete !== true);
    if (candidates.length) resources.splice(r.pick(candidates), 1);
  }
  return { ...deployment, resources };
}
