/**
 * The differential suite's cases: documents (generated with fixed seeds, plus the real fixtures
 * Pulumi can load) and, for each, seeded choices of operations and targets. Each case knows how to
 * run itself through our surgery and which `pulumi` command does the same.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clearPending, moveResources, removeResources, renameResource, repairState, setFlag, type SurgeryOutcome } from '../../../shared/state/surgery';
import { breakOrder, checkpointText, generateDeployment, random, SECRET_SIG, SIG_KEY, TEST_SECRETS_PROVIDERS, type Random } from './generate';

type Rec = Record<string, unknown>;

export interface Case {
  name: string;
  kind: 'remove' | 'protect' | 'unprotect' | 'taint' | 'untaint' | 'rename' | 'repair' | 'clear-pending' | 'move';
  /** The source stack's checkpoint (organization/p/s). */
  input: string;
  /** move: the destination's checkpoint (organization/q/d). */
  dest?: string;
  args: string[];
  flags: { all?: boolean; force?: boolean; targetDependents?: boolean; includeParents?: boolean };
  /** rename: the new name. */
  newName?: string;
}

export const SOURCE = 'organization/p/s';
export const DEST = 'organization/q/d';

export function runOurs(c: Case): { source: SurgeryOutcome; dest?: SurgeryOutcome } {
  switch (c.kind) {
    case 'remove':
      return { source: removeResources(c.input, c.args, c.flags) };
    case 'protect':
    case 'unprotect':
    case 'taint':
    case 'untaint':
      return { source: setFlag(c.input, c.kind, c.args, { all: c.flags.all }) };
    case 'rename':
      return { source: renameResource(c.input, c.args[0], c.newName!) };
    case 'repair':
      return { source: repairState(c.input) };
    case 'clear-pending':
      return { source: clearPending(c.input, c.args) };
    case 'move': {
      const moved = moveResources(c.input, c.dest!, c.args, { includeParents: c.flags.includeParents });
      return { source: moved.source, dest: moved.dest };
    }
  }
}

/** The export form of a checkpoint (what `pulumi stack import` reads). */
export function exportOf(checkpoint: string): string {
  const root = JSON.parse(checkpoint) as Rec;
  const body = root.checkpoint as Rec;
  return JSON.stringify({ version: root.version, ...(root.features ? { features: root.features } : {}), deployment: body.latest });
}

export function pulumiArgs(c: Case): { args: string[]; files?: Record<string, string> } {
  const common = ['--yes', '--non-interactive'];
  switch (c.kind) {
    case 'remove':
      return {
        args: [
          'state',
          'delete',
          '--stack',
          SOURCE,
          ...common,
          ...(c.flags.all ? ['--all'] : []),
          ...(c.flags.force ? ['--force'] : []),
          ...(c.flags.targetDependents ? ['--target-dependents'] : []),
          ...c.args,
        ],
      };
    case 'protect':
    case 'unprotect':
    case 'taint':
    case 'untaint':
      return { args: ['state', c.kind, '--stack', SOURCE, ...common, ...(c.flags.all ? ['--all'] : []), ...c.args] };
    case 'rename':
      return { args: ['state', 'rename', '--stack', SOURCE, ...common, c.args[0], c.newName!] };
    case 'repair':
      return { args: ['state', 'repair', '--stack', SOURCE, ...common] };
    case 'clear-pending':
      return { args: ['stack', 'import', '--stack', SOURCE, '--non-interactive', '--file', '{dir}/import.json'], files: { 'import.json': exportOf(c.input) } };
    case 'move':
      return { args: ['state', 'move', '--source', SOURCE, '--dest', DEST, ...common, ...(c.flags.includeParents ? ['--include-parents'] : []), ...c.args] };
  }
}

const urnsOf = (deployment: Rec) => (deployment.resources as Rec[]).map((r) => r.urn as string);
const live = (deployment: Rec) => (deployment.resources as Rec[]).filter((r) => r.delete !== true);

function opsFor(name: string, deployment: Rec, features: string[], r: Random, minified: boolean, cases: Case[], destPool: string[]): void {
  const input = checkpointText({ deployment, features }, { minified });
  const resources = deployment.resources as Rec[];
  const urns = urnsOf(deployment);
  const unique = urns.filter((u) => urns.indexOf(u) === urns.lastIndexOf(u));
  const nonRoot = unique.filter((u) => !u.includes('::pulumi:pulumi:Stack::'));
  const liveUrns = [...new Set(live(deployment).map((x) => x.urn as string))];
  const add = (kind: Case['kind'], args: string[], flags: Case['flags'] = {}, extra: Partial<Case> = {}) =>
    cases.push({
      name: `${name} ${kind}${flags.all ? ' --all' : ''}${flags.targetDependents ? ' --target-dependents' : ''}${flags.force ? ' --force' : ''} #${cases.length}`,
      kind,
      input,
      args,
      flags,
      ...extra,
    });
  if (nonRoot.length) {
    add('remove', [r.pick(nonRoot)]);
    add('remove', [r.pick(nonRoot)], { targetDependents: true });
    add('remove', r.subset(nonRoot, 3), { targetDependents: true, force: true });
    add('remove', r.subset(unique, 2), { force: r.chance(0.5) });
  }
  if (r.chance(0.3) && urns.length !== unique.length) add('remove', [r.pick(urns.filter((u) => !unique.includes(u)))]);
  add('remove', [], { all: true, force: r.chance(0.7) });
  add('protect', r.subset(liveUrns, 3));
  add(r.chance(0.5) ? 'protect' : 'unprotect', [], { all: true });
  add('unprotect', r.subset(liveUrns, 3));
  add('taint', r.subset(liveUrns, 2));
  if (r.chance(0.5)) add('untaint', [], { all: true });
  else add('untaint', r.subset(liveUrns, 2));
  // Not-found: a near miss gets "Did you mean".
  const target = r.pick(liveUrns);
  add(r.pick(['protect', 'taint', 'remove'] as const), [`${target.slice(0, -1)}X`]);
  for (let k = 0; k < 2; k++) {
    const candidates = r.chance(0.5) ? unique : unique.filter((u) => resources.some((x) => x.parent === u) || u.includes('pulumi:providers:'));
    if (candidates.length) add('rename', [r.pick(candidates)], {}, { newName: `renamed-${r.int(1000)}` });
  }
  if (resources.length > 2) {
    const broken = breakOrder(deployment, r.int(1 << 30));
    cases.push({ name: `${name} repair (broken) #${cases.length}`, kind: 'repair', input: checkpointText({ deployment: broken, features }, { minified }), args: [], flags: {} });
  }
  add('repair', []);
  if (Array.isArray(deployment.pending_operations) && deployment.pending_operations.length) add('clear-pending', []);
  const movable = nonRoot.filter((u) => !u.includes('::pulumi:providers:'));
  if (movable.length && destPool.length) {
    add('move', r.subset(movable, 2), { includeParents: r.chance(0.4) }, { dest: r.pick(destPool) });
  }
}

/** Pulumi's own test fixtures and recorded states, made loadable: ciphertext cannot be decrypted, so secrets become plaintext under the test passphrase. */
function realDeployments(): Array<{ name: string; deployment: Rec; features: string[] }> {
  const folder = join(__dirname, '..', '..', 'fixtures', 'state', 'real');
  const names = [
    'pulumi-tls__examples_TPU_ts_5.0.0_stack.json',
    'pulumi-eks__tests_TPU_cluster_1.0.4_state.json',
    'pulumi__pkg_resource_stack_testdata_checkpoint-v3.json',
    'pulumi__pkg_resource_stack_testdata_checkpoint-v4.json',
    'pulumi__pkg_resource_stack_testdata_checkpoint-secrets.json',
  ];
  let n = 0;
  const plain = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(plain);
    if (typeof value !== 'object' || value === null) return value;
    const object = value as Rec;
    if (object[SIG_KEY] === SECRET_SIG && 'ciphertext' in object) return { [SIG_KEY]: SECRET_SIG, plaintext: JSON.stringify(`redacted-${n++}`) };
    return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, plain(v)]));
  };
  return names.map((file) => {
    const root = JSON.parse(readFileSync(join(folder, file), 'utf8')) as Rec;
    const body = (root.deployment ?? (root.checkpoint as Rec).latest) as Rec;
    const converted = plain(body) as Rec;
    const hasSecrets = JSON.stringify(converted).includes(SECRET_SIG);
    const { secrets_providers: _dropped, ...rest } = converted;
    void _dropped;
    const deployment = hasSecrets ? { ...rest, secrets_providers: TEST_SECRETS_PROVIDERS } : rest;
    const features = Array.isArray(root.features) ? (root.features as string[]) : [];
    // Pulumi's stack names in urns must match the stack they are loaded into.
    const text = JSON.stringify(deployment).replace(/urn:pulumi:([^:]+)::([^:]+)::/g, 'urn:pulumi:s::$2::');
    return { name: file.replace(/\.json$/, ''), deployment: JSON.parse(text) as Rec, features };
  });
}

const SEEDS_FOR_BAD_INPUT = [31, 32, 33, 34];

export function buildCases(seeds: number[]): Case[] {
  const cases: Case[] = [];
  const destPool = [
    checkpointText(generateDeployment(9001, { stack: 'd', project: 'q', size: 4, secrets: true }), { stack: 'd', project: 'q' }),
    checkpointText(
      { deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, secrets_providers: TEST_SECRETS_PROVIDERS }, features: [] },
      { stack: 'd', project: 'q', minified: true },
    ),
  ];
  for (const seed of seeds) {
    const r = random(seed * 7919);
    // A passphrase provider costs Pulumi ~0.13 s of PBKDF2 per run: one document in four has secrets.
    const generated = generateDeployment(seed, { secrets: seed % 4 === 0 });
    opsFor(`generated(${seed})`, generated.deployment, generated.features, r, r.chance(0.5), cases, destPool);
  }
  // Bad input both must refuse: a cycle for repair, a move into a stack that already holds the urn.
  for (const seed of SEEDS_FOR_BAD_INPUT) {
    const generated = generateDeployment(seed, { size: 10 });
    const resources = generated.deployment.resources as Rec[];
    const customs = resources.filter((x) => x.custom === true && !String(x.type).startsWith('pulumi:providers:') && x.delete !== true);
    if (customs.length >= 2) {
      const [first, second] = customs;
      const cyclic = resources.map((x) => (x === first ? { ...x, dependencies: [second.urn] } : x));
      cases.push({
        name: `generated(${seed}) repair (cycle) #${cases.length}`,
        kind: 'repair',
        input: checkpointText({ deployment: { ...generated.deployment, resources: cyclic }, features: generated.features }),
        args: [],
        flags: {},
      });
    }
    const twin = generateDeployment(seed, { size: 10, stack: 'd', project: 'q', secrets: true });
    const movable = resources.filter((x) => x.parent === resources[0].urn && !String(x.type).startsWith('pulumi:providers:') && x.delete !== true);
    if (movable.length) {
      cases.push({
        name: `generated(${seed}) move (urn already in the destination) #${cases.length}`,
        kind: 'move',
        input: checkpointText(generated),
        dest: checkpointText(twin, { stack: 'd', project: 'q' }),
        args: [movable[0].urn as string],
        flags: {},
      });
    }
  }
  // A version-1 checkpoint as Pulumi's fixture has it: Pulumi migrates it and writes version 3, as we do.
  const v1 = readFileSync(join(__dirname, '..', '..', 'fixtures', 'state', 'real', 'pulumi__pkg_resource_stack_testdata_checkpoint-v1.json'), 'utf8');
  const v1Root = JSON.parse(v1.replace(/urn:pulumi:([^:]+)::/g, 'urn:pulumi:s::')) as { checkpoint: Rec };
  v1Root.checkpoint.stack = SOURCE;
  cases.push({ name: `pulumi__pkg_resource_stack_testdata_checkpoint-v1 repair (version 1) #${cases.length}`, kind: 'repair', input: JSON.stringify(v1Root, null, 4), args: [], flags: {} });
  const r = random(424242);
  for (const { name, deployment, features } of realDeployments()) {
    const resources = deployment.resources as Rec[];
    // The checkpoint fixtures list children before parents: repair them first; the rest runs on the repaired order.
    const repaired = repairState(checkpointText({ deployment, features }));
    cases.push({ name: `${name} repair #${cases.length}`, kind: 'repair', input: checkpointText({ deployment, features }), args: [], flags: {} });
    const base = repaired.status === 'applied' ? (((JSON.parse(repaired.text) as Rec).checkpoint as Rec).latest as Rec) : deployment;
    void resources;
    opsFor(name, base, features, r, false, cases, destPool);
  }
  return cases;
}
