/**
 * `quota-state graph` against real `pulumi stack graph` (v3.274.1): every real state fixture Pulumi
 * loads, and the webshop example, held as a DIY stack, drawn by both with each of the four flag
 * combinations, compared as sets (nodes by label, edges by their ends' labels, colour and label).
 * Then what Pulumi leaves out (--all-edges), the focus, and Mermaid's refusal.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePulumi, hermeticEnv } from '../../scripts/pulumi-cli.mjs';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { createStateService } from '../../shared/state';
import { ROOT, runQuotaState } from '../helpers/processes';
import { dotFacts } from '../helpers/dotFacts';

const state = createStateService();
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-graph-'));

interface Case {
  name: string;
  file: string;
  stack: string;
}

/** Each fixture as a DIY stack of one backend: its checkpoint under .pulumi/stacks/<project>/<stack>.json. */
function backendOf(files: string[]): { folder: string; cases: Case[] } {
  const folder = join(scratch, 'backend');
  mkdirSync(join(folder, '.pulumi'), { recursive: true });
  writeFileSync(join(folder, '.pulumi', 'meta.yaml'), 'version: 1\n');
  const cases: Case[] = [];
  files.forEach((file, index) => {
    const text = readFileSync(file, 'utf8');
    const snapshot = state.parse(text);
    const { structure } = snapshot;
    if (snapshot.parsedWith !== 'json' || !structure.deploymentPath || structure.resources.length === 0 || structure.legacyCheckpoint) return;
    const deployment = withoutSecrets(structure.deploymentPath.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key as string], structure.root));
    const root = structure.root as { version?: unknown };
    const version = typeof root.version === 'number' ? root.version : 3;
    const project = `p${index}`;
    const stack = `organization/${project}/s${index}`;
    mkdirSync(join(folder, '.pulumi', 'stacks', project), { recursive: true });
    writeFileSync(join(folder, '.pulumi', 'stacks', project, `s${index}.json`), JSON.stringify({ version, checkpoint: { stack, latest: deployment } }));
    cases.push({ name: file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : file.split('/').pop()!, file, stack });
  });
  return { folder, cases };
}

const SECRET_SIG = '4dabf18193072939515e22adb298388d';

/**
 * The deployment with its secrets as plaintext and no secrets provider: a graph reads no property,
 * and Pulumi would otherwise need each fixture's passphrase (or a provider it does not build in).
 */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIG] !== undefined && 'ciphertext' in record) return { [SECRET_SIG]: record[SECRET_SIG], plaintext: '""' };
  return Object.fromEntries(
    Object.entries(record)
      .filter(([key]) => key !== 'secrets_providers')
      .map(([key, item]) => [key, withoutSecrets(item)]),
  );
}

const FLAG_SETS = [[], ['--ignore-parent-edges'], ['--ignore-dependency-edges'], ['--short-node-name']];

describe('quota-state graph, against real `pulumi stack graph`', function () {
  this.timeout(10 * 60 * 1000);
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('draws the nodes, edges and labels real Pulumi draws, for every fixture it loads, with each flag', () => {
    const { pulumi } = ensurePulumi();
    const real = join(ROOT, 'test', 'fixtures', 'state', 'real');
    // The checkpoints real Pulumi wrote in the generated history (parents, dependencies, an alias, protect), and the real fixtures.
    const history = join(ensureHistories().backends[0].folder, '.pulumi', 'history', 'hist', 'dev');
    const checkpoints = readdirSync(history)
      .filter((f) => f.endsWith('.checkpoint.json'))
      .map((f) => join(history, f));
    const files = [
      ...checkpoints,
      ...readdirSync(real)
        .filter((f) => f.endsWith('.json'))
        .map((f) => join(real, f)),
      join(ROOT, 'examples', 'webshop.state.json'),
    ];
    const { folder, cases } = backendOf(files);
    const { env, cleanup } = hermeticEnv({ ...process.env, PULUMI_BACKEND_URL: `file://${folder}`, PULUMI_CONFIG_PASSPHRASE: 'graph-test' });
    let compared = 0;
    const skipped: string[] = [];
    try {
      for (const testCase of cases) {
        for (const flags of FLAG_SETS) {
          const out = join(scratch, 'pulumi.dot');
          const theirs = spawnSync(pulumi, ['stack', 'graph', out, '--stack', testCase.stack, ...flags], { cwd: scratch, env, encoding: 'utf8' });
          if (theirs.status !== 0) {
            skipped.push(`${testCase.name}: ${/^(error|panic): .*$/m.exec(theirs.stderr)?.[0] ?? theirs.stderr.trim().split('\n')[0]}`);
            break;
          }
          const ours = runQuotaState(['graph', testCase.file, ...flags]);
          assert.equal(ours.status, 0, ours.stderr);
          assert.deepEqual(dotFacts(ours.stdout), dotFacts(readFileSync(out, 'utf8')), `${testCase.name} ${flags.join(' ')}`);
          compared++;
        }
      }
    } finally {
      cleanup();
    }
    console.log(`      ${compared} graphs compared with pulumi stack graph; not loaded by Pulumi: ${skipped.length ? skipped.join('; ') : 'none'}`);
    assert.ok(compared >= 4 * 8, `only ${compared} graphs compared (${skipped.join('; ')})`);
  });

  it('--all-edges adds provider, deletedWith and replaceWith edges, keeps copies apart and draws missing resources', () => {
    const U = (type: string, name: string) => `urn:pulumi:dev::app::${type}::${name}`;
    const provider = U('pulumi:providers:aws', 'default');
    const bucket = U('aws:s3/bucket:Bucket', 'b');
    const gone = U('aws:s3/bucket:Bucket', 'gone');
    const records = [
      { urn: provider, custom: true, id: 'p1', type: 'pulumi:providers:aws' },
      { urn: bucket, custom: true, id: 'b1', type: 'aws:s3/bucket:Bucket', provider: `${provider}::p1` },
      { urn: bucket, custom: true, id: 'b0', type: 'aws:s3/bucket:Bucket', delete: true, provider: `${provider}::p1` },
      {
        urn: U('aws:s3/bucketPolicy:BucketPolicy', 'p'),
        custom: true,
        id: 'x',
        type: 'aws:s3/bucketPolicy:BucketPolicy',
        deletedWith: bucket,
        replaceWith: [gone],
        dependencies: [bucket],
        propertyDependencies: { bucket: [bucket] },
      },
    ];
    const file = join(scratch, 'edges.json');
    writeFileSync(file, JSON.stringify({ version: 3, deployment: { manifest: { time: '', magic: '', version: '' }, resources: records } }));
    const all = runQuotaState(['graph', file, '--all-edges', '--format', 'json']);
    assert.equal(all.status, 0, all.stderr);
    const graph = JSON.parse(all.stdout) as { nodes: Array<{ id: string; missing?: boolean }>; edges: Array<{ from: string; to: string; kind: string; labels: string[] }> };
    assert.deepEqual(graph.nodes.map((n) => n.id).sort(), [`${bucket}#1`, `${bucket}#2`, gone, provider, records[3].urn].sort());
    assert.equal(graph.nodes.find((n) => n.id === gone)?.missing, true);
    const kinds = graph.edges.map((e) => `${e.kind} ${e.from.split('::').pop()} -> ${e.to.split('::').pop()}${e.labels.length ? ` (${e.labels.join(', ')})` : ''}`).sort();
    assert.deepEqual(kinds, ['deletedWith p -> b#1', 'dependency b#1 -> p (bucket)', 'provider b#1 -> default', 'provider b#2 -> default', 'replaceWith p -> gone']);
    // Pulumi's own: one node per urn (the last copy), no provider edges.
    const plain = JSON.parse(runQuotaState(['graph', file, '--format', 'json']).stdout) as typeof graph;
    assert.equal(plain.nodes.length, 3);
    assert.deepEqual(plain.edges.map((e) => e.kind).sort(), ['dependency']);
  });

  it('--focus keeps what is within --depth edges; an unknown focus exits 1; Mermaid refuses a graph too big to read', () => {
    const webshop = join(ROOT, 'examples', 'webshop.state.json');
    const resources = (JSON.parse(readFileSync(webshop, 'utf8')) as { deployment: { resources: Array<{ urn: string }> } }).deployment.resources;
    const focus = resources.find((r) => r.urn.endsWith('::orders-db'))!.urn;
    const near = JSON.parse(runQuotaState(['graph', webshop, '--focus', focus, '--format', 'json']).stdout) as { nodes: Array<{ name: string }> };
    const far = JSON.parse(runQuotaState(['graph', webshop, '--focus', focus, '--depth', '3', '--format', 'json']).stdout) as { nodes: Array<{ name: string }> };
    assert.ok(near.nodes.some((n) => n.name === 'orders-db'));
    assert.ok(near.nodes.length < far.nodes.length, `${near.nodes.length} < ${far.nodes.length}`);
    const unknown = runQuotaState(['graph', webshop, '--focus', 'urn:pulumi:x::y::t::nope']);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /is no resource of/);
    const many = join(scratch, 'many.json');
    const records = Array.from({ length: 501 }, (_, i) => ({ urn: `urn:pulumi:dev::app::t:m:R::r${i}`, custom: false, type: 't:m:R' }));
    writeFileSync(many, JSON.stringify({ version: 3, deployment: { manifest: { time: '', magic: '', version: '' }, resources: records } }));
    const mermaid = runQuotaState(['graph', many, '--format', 'mermaid']);
    assert.equal(mermaid.status, 1);
    assert.match(mermaid.stderr, /501 nodes are more than Mermaid can draw readably \(500\)/);
    assert.equal(runQuotaState(['graph', many, '--format', 'mermaid', '--focus', records[0].urn]).status, 0);
    assert.equal(runQuotaState(['graph', webshop, '--depth', '2']).status, 2);
  });

  it('draws a DIY stack named as STACK, plain, gzip or zstd, as real `pulumi stack graph` draws it there', () => {
    const { pulumi } = ensurePulumi();
    for (const backend of ensureHistories().backends) {
      const { env, cleanup } = hermeticEnv({
        ...process.env,
        PULUMI_BACKEND_URL: `file://${backend.folder}`,
        PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
        PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
      });
      try {
        const out = join(scratch, `${backend.layout}-${backend.compression}.dot`);
        const theirs = spawnSync(pulumi, ['stack', 'graph', out, '--stack', backend.stack], { cwd: scratch, env, encoding: 'utf8' });
        assert.equal(theirs.status, 0, theirs.stderr);
        const ours = runQuotaState(['graph', backend.stack, '--backend', `file://${backend.folder}`]);
        assert.equal(ours.status, 0, ours.stderr);
        assert.deepEqual(dotFacts(ours.stdout), dotFacts(readFileSync(out, 'utf8')), `${backend.layout} ${backend.compression}`);
        assert.ok(dotFacts(ours.stdout).length > 3);
      } finally {
        cleanup();
      }
    }
    const missing = runQuotaState(['graph', 'organization/hist/nope', '--backend', `file://${ensureHistories().backends[0].folder}`]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no stack "organization\/hist\/nope".*its stacks: organization\/hist\/dev/);
  });

  it("--format json counts each node's pending operations and the check's errors and warnings", () => {
    const u = (name: string) => `urn:pulumi:dev::shop::aws:s3/bucket:Bucket::${name}`;
    const root = 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev';
    const file = join(scratch, 'findings.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 3,
        deployment: {
          manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' },
          resources: [
            { urn: root, custom: false, type: 'pulumi:pulumi:Stack' },
            { urn: u('a'), custom: true, id: 'a', type: 'aws:s3/bucket:Bucket', parent: root, dependencies: [u('gone')] },
            { urn: u('b'), custom: true, id: 'b', type: 'aws:s3/bucket:Bucket', parent: root },
          ],
          pending_operations: [{ resource: { urn: u('b'), custom: true, type: 'aws:s3/bucket:Bucket' }, type: 'updating' }],
        },
      }),
    );
    const result = runQuotaState(['graph', file, '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    const nodes = (JSON.parse(result.stdout) as { nodes: Array<{ name: string; pending: number; diagnostics: { errors: number; warnings: number } }> }).nodes;
    const byName = new Map(nodes.map((n) => [n.name, n]));
    assert.ok(byName.get('a')!.diagnostics.errors >= 1, JSON.stringify(byName.get('a')));
    assert.deepEqual([byName.get('b')!.pending, byName.get('b')!.diagnostics], [1, { errors: 0, warnings: 0 }]);
    assert.equal(byName.get('shop-dev')!.pending, 0);
  });
});

describe('quota-state graph of a stack without resources', () => {
  const example = join(ROOT, 'examples', 'pulumi-backend');
  let own: string;
  before(() => (own = mkdtempSync(join(tmpdir(), 'quota-state-graph-empty-'))));
  after(() => rmSync(own, { recursive: true, force: true }));
  /** The shipped example's stack, its checkpoint's deployment replaced by `latest` (a destroyed stack: Pulumi omits the empty resources). */
  function backendWith(latest: unknown): string {
    const folder = mkdtempSync(join(own, 'empty-'));
    cpSync(example, folder, { recursive: true });
    const file = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
    const checkpoint = JSON.parse(readFileSync(file, 'utf8')) as { checkpoint: { latest: Record<string, unknown> } };
    writeFileSync(file, JSON.stringify({ ...checkpoint, checkpoint: { ...checkpoint.checkpoint, latest } }));
    return folder;
  }

  it('prints an empty graph, as `pulumi stack graph` does, and exits 0: a destroyed stack, a file, every format', () => {
    const folder = backendWith({ manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' }, secrets_providers: { type: 'passphrase', state: {} } });
    const stack = runQuotaState(['graph', 'organization/hist/dev', '--backend', `file://${folder}`]);
    assert.equal(stack.status, 0, stack.stderr);
    assert.equal(stack.stdout, 'strict digraph {\n}\n');
    assert.equal(stack.stderr, '');
    const file = join(folder, '.pulumi', 'stacks', 'hist', 'dev.json');
    assert.equal(runQuotaState(['graph', file]).stdout, 'strict digraph {\n}\n');
    const exported = join(own, 'empty-export.json');
    writeFileSync(exported, JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: 'v3.274.1' } } }));
    assert.equal(runQuotaState(['graph', exported]).stdout, 'strict digraph {\n}\n');
    const json = runQuotaState(['graph', exported, '--format', 'json']);
    assert.equal(json.status, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), { nodes: [], edges: [] });
    assert.equal(runQuotaState(['graph', exported, '--format', 'mermaid']).status, 0);
  });

  it('a stack never updated has no snapshot, as Pulumi says: exit 2 naming it', () => {
    const folder = backendWith(null);
    const result = runQuotaState(['graph', 'organization/hist/dev', '--backend', `file://${folder}`]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /dev\.json holds no deployment \(a stack never updated\)/);
  });
});
