/**
 * The real Pulumi (v3.274.1, built from its Go module in tools/pulumi) judges the state checker:
 *
 * - every state fixture of the suite, real files included, gets Pulumi's verdict live, and the product
 *   reports an Error if and only if Pulumi refuses the file, with Pulumi's own error among its errors;
 * - a mutation fuzzer over the fixtures, at fixed seeds, finds no disagreement;
 * - valid fixtures go through the real `pulumi stack import` and `pulumi stack export` on a `file://`
 *   backend (plain and gzipped stack files) and come back with the checker's verdict unchanged;
 * - all of it offline.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeState } from '../../shared/state/analyze';
import { DiyBackend, judgeFiles, pulumiBinaries, qualifiedStack, type PulumiVerdict } from '../helpers/realPulumi';
import { DIFF_FIXTURES, recordDisagreement, ROOT, runFuzz, stateFixtureFiles } from './fuzz';
import { compareWithPulumi } from './oracle';

/** Fixed seeds for `npm test`; `npm run fuzz -- --seed N --count M` explores others. */
const FUZZ_SEEDS = [11, 23, 37];

/** A small valid export of `organization/<project>/<stack>`: the root stack and one bucket, no secrets. */
function smallExport(project: string, stack: string): { version: number; deployment: Record<string, unknown> } {
  const root = `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`;
  return {
    version: 3,
    deployment: {
      manifest: { time: '2026-11-01T00:00:00Z', magic: createHash('sha256').update('v3.274.1').digest('hex'), version: 'v3.274.1' },
      resources: [
        { urn: root, custom: false, type: 'pulumi:pulumi:Stack' },
        { urn: `urn:pulumi:${stack}::${project}::aws:s3/bucket:Bucket::site`, custom: true, id: 'site-1', type: 'aws:s3/bucket:Bucket', parent: root, outputs: { bucket: 'site-1' } },
      ],
    },
  };
}
const MUTANTS_PER_SEED = 1000;

describe('the state checker against the real Pulumi', function () {
  this.timeout(600_000);
  const files = stateFixtureFiles();
  let verdicts: Map<string, PulumiVerdict>;

  before(() => {
    pulumiBinaries();
    verdicts = new Map(judgeFiles(files.map((file) => join(ROOT, file))).map((verdict, i) => [files[i], verdict] as const));
  });

  it(`the pinned CLI reports its version: npm run pulumi -- version`, () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'pulumi.mjs'), 'version'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.trim(), pulumiBinaries().version);
    assert.match(result.stdout, /^v3\.274\.1$/m);
  });

  it('the judge answers for every shape: export, DIY checkpoint (legacy to v4), bare deployment, secrets, and none', () => {
    const shapes = new Set([...verdicts.values()].map((v) => v.shape));
    for (const shape of ['export', 'checkpoint', 'deployment', 'other'] as const) assert.ok(shapes.has(shape), `no fixture of shape ${shape}`);
    // Secrets without keys: a passphrase-encrypted real file is decrypted by the placeholder provider and
    // judged on its merits (it is refused for its resource order, not for its ciphertext).
    const secrets = verdicts.get('test/fixtures/state/real/pulumi__pkg_resource_stack_testdata_checkpoint-secrets.json');
    assert.equal(secrets?.stage, 'integrity', JSON.stringify(secrets));
    const eks = verdicts.get('test/fixtures/state/real/pulumi-eks__tests_TPU_cluster_1.0.4_state.json');
    assert.equal(eks?.accepted, true, JSON.stringify(eks));
    // Pulumi's own refusal of ciphertext without any secrets provider is kept.
    assert.equal(verdicts.get('test/fixtures/pulumi-diff/ciphertext-without-secrets-provider.json')?.accepted, false);
    // A single record is no document Pulumi loads.
    assert.equal(verdicts.get('test/fixtures/state/record.state.json')?.accepted, null);
  });

  it('the judge goes on after a Pulumi panic, and echoes relative paths from the caller directory', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'quota-state-judge-'));
    try {
      const crash = readFileSync(join(DIFF_FIXTURES, 'child-with-unprefixed-urn-crashes-pulumi.json'), 'utf8');
      writeFileSync(join(scratch, 'crash.json'), crash);
      writeFileSync(join(scratch, 'fine.json'), readFileSync(join(ROOT, 'test/fixtures/state/clean-export.state.json'), 'utf8'));
      const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'pulumi.mjs'), '--judge', 'crash.json', 'fine.json', 'missing.json'], {
        encoding: 'utf8',
        env: { ...process.env, INIT_CWD: scratch },
      });
      assert.equal(result.status, 0, result.stderr);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as PulumiVerdict);
      assert.deepEqual(
        lines.map((v) => [v.file, v.accepted, v.stage]),
        [
          ['crash.json', false, 'panic'],
          ['fine.json', true, null],
          ['missing.json', false, 'read'],
        ],
      );
      assert.match(lines[0].error ?? '', /Urn is: 'not:a:urn'/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  describe("every state fixture: an Error if and only if Pulumi refuses, with Pulumi's error among them", () => {
    for (const file of files) {
      it(file, () => {
        const verdict = verdicts.get(file)!;
        const comparison = compareWithPulumi(readFileSync(join(ROOT, file), 'utf8'), verdict);
        assert.ok(comparison.agree, comparison.reason);
        // A committed disagreement keeps Pulumi's verdict beside it; the verdict must not have drifted.
        const note = join(ROOT, file.replace(/\.json$/, '.pulumi.txt'));
        if (file.includes('pulumi-diff') && existsSync(note)) {
          const recorded = readFileSync(note, 'utf8');
          assert.match(recorded, verdict.accepted ? /: accepted/ : new RegExp(`refused at ${verdict.stage}`), `${note} no longer matches Pulumi's verdict`);
        }
      });
    }
  });

  it('2017-era checkpoints ("Lumi"): `info` and `children` are legacy fields, and assets with empty content keys load', () => {
    const file = 'test/fixtures/pulumi-diff/lumi-2017-checkpoint.json';
    assert.equal(verdicts.get(file)?.accepted, true);
    const diagnostics = analyzeState(readFileSync(join(ROOT, file), 'utf8')).diagnostics;
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
      [],
    );
    const legacy = diagnostics.find((d) => d.code === 'legacy-property');
    assert.match(legacy?.message ?? '', /info \(1\)/);
    assert.match(legacy?.message ?? '', /children \(2\)/);
  });

  it(`the mutation fuzzer: ${FUZZ_SEEDS.length * MUTANTS_PER_SEED} mutants at seeds ${FUZZ_SEEDS.join(', ')}, judged in batches, no disagreement`, () => {
    const started = Date.now();
    const problems: string[] = [];
    let accepted = 0;
    let refused = 0;
    for (const seed of FUZZ_SEEDS) {
      const report = runFuzz({ seed, count: MUTANTS_PER_SEED });
      accepted += report.accepted;
      refused += report.refused;
      for (const disagreement of report.disagreements) {
        const recorded = recordDisagreement(disagreement, seed);
        problems.push(`${disagreement.mutant.name} [${disagreement.mutant.mutations.join(', ')}]: ${disagreement.shrunkReason} (shrunk into ${recorded})`);
      }
    }
    console.log(`      fuzzer: ${FUZZ_SEEDS.length * MUTANTS_PER_SEED} mutants (Pulumi accepted ${accepted}, refused ${refused}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    assert.ok(accepted > 300 && refused > 300, `the mutants should exercise both verdicts (accepted ${accepted}, refused ${refused})`);
    assert.deepEqual(problems, []);
  });

  describe('round trips through the real `pulumi stack import` and `pulumi stack export`', () => {
    /** The stack and project every urn of the document names, when they name exactly one. */
    const stackOf = (text: string): { project: string; stack: string } | undefined => {
      const pairs = new Set([...text.matchAll(/"urn:pulumi:([^:"]*)::([^:"]*)::/g)].map((m) => `${m[2]}/${m[1]}`));
      if (pairs.size !== 1 || /"urn:(?!pulumi:)/.test(text)) return undefined;
      const [project, stack] = [...pairs][0].split('/');
      return { project, stack };
    };
    /**
     * The `stack import` input for a document of any shape Pulumi loads. A fixture's secrets provider
     * holds some other passphrase's salt, so the target stack's own provider replaces it (the documents
     * chosen hold no ciphertext, so nothing is lost).
     */
    const importable = (text: string, secretsProviders: object): string => {
      const root = JSON.parse(text) as Record<string, unknown>;
      let wrapper: { version: unknown; features?: unknown; deployment: Record<string, unknown> };
      if ('deployment' in root) wrapper = root as typeof wrapper;
      else if ('checkpoint' in root) wrapper = { version: root.version, features: root.features, deployment: (root.checkpoint as Record<string, unknown>).latest as Record<string, unknown> };
      else if ('latest' in root) wrapper = { version: 1, deployment: root.latest as Record<string, unknown> };
      else wrapper = { version: 3, deployment: root };
      if (wrapper.deployment.secrets_providers !== undefined) wrapper.deployment.secrets_providers = secretsProviders;
      return JSON.stringify(wrapper);
    };
    const codes = (text: string): string[] => [...new Set(analyzeState(text).diagnostics.map((d) => d.code))].sort();

    const candidates = (): string[] =>
      files.filter((file) => {
        const verdict = verdicts.get(file)!;
        const text = readFileSync(join(ROOT, file), 'utf8');
        if (verdict.accepted !== true || text.includes('"ciphertext"') || stackOf(text) === undefined || !/"resources"\s*:\s*\[\s*\{/.test(text)) return false;
        // A version-0 file with a `checkpoint` member loads as empty: nothing to round-trip.
        return (JSON.parse(text) as { version?: unknown }).version !== 0;
      });

    for (const gzip of [false, true]) {
      it(`valid fixtures without ciphertext, ${gzip ? 'gzipped' : 'plain'} stack files: the exported file gets the same codes`, () => {
        const chosen = candidates();
        assert.ok(chosen.length >= 4, `only ${chosen.length} fixtures qualify: ${chosen.join(', ')}`);
        console.log(`      ${chosen.length} fixtures: ${chosen.map((file) => file.replace(/^.*\//, '')).join(', ')}`);
        for (const file of chosen) {
          const backend = new DiyBackend({ gzip });
          try {
            const text = readFileSync(join(ROOT, file), 'utf8');
            const { project, stack } = stackOf(text)!;
            const name = qualifiedStack(project, stack);
            backend.initStack(project, stack);
            const input = join(backend.root, 'input.json');
            writeFileSync(input, importable(text, backend.secretsProviders(stack)));
            backend.ok(['stack', 'import', '--stack', name, '--file', input]);
            const stored = backend.readStack(project, stack, gzip);
            // Recent DIY backends store minified one-line JSON (and gzip it when asked).
            assert.ok(!stored.trimEnd().includes('\n'), `${file}: the stored stack file is not one line`);
            assert.ok(existsSync(backend.stackFile(project, stack, gzip)), `${file}: no ${gzip ? 'gzipped ' : ''}stack file`);
            const output = join(backend.root, 'output.json');
            backend.ok(['stack', 'export', '--stack', name, '--file', output]);
            const exported = readFileSync(output, 'utf8');
            assert.doesNotThrow(() => JSON.parse(exported), `${file}: the export is not plain JSON`);
            const before = codes(text);
            const after = codes(exported);
            assert.deepEqual(
              after.filter((code) => !before.includes(code)),
              [],
              `${file}: new codes after the round trip`,
            );
            assert.deepEqual(
              analyzeState(exported).diagnostics.filter((d) => d.severity === 'error'),
              [],
              `${file}: errors after the round trip`,
            );
            // The stored checkpoint, as the DIY backend keeps it (minified), gets no new codes either.
            assert.deepEqual(
              codes(stored).filter((code) => !before.includes(code)),
              [],
              `${file}: new codes in the stored checkpoint`,
            );
          } finally {
            backend.dispose();
          }
        }
      });
    }

    it('a fixture the suite encrypts with a known passphrase: secrets round-trip as ciphertext with a passphrase provider', () => {
      const backend = new DiyBackend({ passphrase: 'correct horse battery staple' });
      try {
        const source = smallExport('shop', 'dev');
        const resources = source.deployment.resources as Array<Record<string, unknown>>;
        const target = resources.find((r) => r.custom === true)!;
        target.outputs = { ...(target.outputs as object), password: { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270', plaintext: '"hunter2"' } };
        const { project, stack } = stackOf(JSON.stringify(source))!;
        const name = qualifiedStack(project, stack);
        backend.initStack(project, stack, ['--secrets-provider', 'passphrase']);
        source.deployment.secrets_providers = backend.secretsProviders(stack);
        const input = join(backend.root, 'input.json');
        writeFileSync(input, JSON.stringify(source, null, 2));
        backend.ok(['stack', 'import', '--stack', name, '--file', input]);
        const output = join(backend.root, 'output.json');
        backend.ok(['stack', 'export', '--stack', name, '--file', output]);
        const exported = readFileSync(output, 'utf8');
        assert.match(exported, /"ciphertext"/);
        assert.doesNotMatch(exported, /hunter2/);
        assert.match(exported, /"type": "passphrase"/);
        assert.deepEqual(
          analyzeState(exported).diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
          [],
        );
        const [verdict] = judgeFiles([output]);
        assert.equal(verdict.accepted, true);
        // And back in: the same passphrase decrypts it.
        backend.ok(['stack', 'import', '--stack', name, '--file', output]);
      } finally {
        backend.dispose();
      }
    });
  });

  describe('offline and hermetic', () => {
    it('works with HTTP(S) sent to a closed local port, and a home folder of its own', () => {
      const backend = new DiyBackend();
      try {
        backend.writeStack('offline', 'dev', JSON.stringify({ version: 3, checkpoint: { stack: qualifiedStack('offline', 'dev'), latest: null } }));
        const listed = backend.ok(['stack', 'ls', '--all', '--json'], { HTTPS_PROXY: 'http://127.0.0.1:1', HTTP_PROXY: 'http://127.0.0.1:1' });
        assert.match(listed.stdout, /organization\/offline\/dev/);
      } finally {
        backend.dispose();
      }
    });

    it('refuses a backend that is not a file:// URL instead of reaching the network', () => {
      const result = spawnSync(process.execPath, [join(ROOT, 'scripts', 'pulumi.mjs'), 'stack', 'ls'], {
        encoding: 'utf8',
        env: { ...process.env, PULUMI_BACKEND_URL: 'https://api.pulumi.com' },
      });
      assert.equal(result.status, 2);
      assert.match(result.stderr, /PULUMI_BACKEND_URL must be a file:\/\/ URL/);
    });

    it("passes the caller's PULUMI_* variables through: a DIY backend folder and PULUMI_DIY_BACKEND_GZIP", () => {
      const folder = mkdtempSync(join(tmpdir(), 'quota-state-diy-folder-'));
      try {
        const run = (args: string[]) =>
          spawnSync(process.execPath, [join(ROOT, 'scripts', 'pulumi.mjs'), ...args, '--non-interactive'], {
            encoding: 'utf8',
            cwd: folder,
            env: { ...process.env, INIT_CWD: folder, PULUMI_BACKEND_URL: `file://${folder}`, PULUMI_CONFIG_PASSPHRASE: 'x', PULUMI_DIY_BACKEND_GZIP: 'true' },
          });
        writeFileSync(join(folder, 'Pulumi.yaml'), 'name: pass\nruntime: nodejs\n');
        const init = run(['stack', 'init', qualifiedStack('pass', 'through')]);
        assert.equal(init.status, 0, init.stderr);
        const input = join(folder, 'in.json');
        writeFileSync(input, JSON.stringify(smallExport('pass', 'through')));
        const imported = run(['stack', 'import', '--stack', qualifiedStack('pass', 'through'), '--file', input]);
        assert.equal(imported.status, 0, imported.stderr);
        assert.ok(existsSync(join(folder, '.pulumi', 'stacks', 'pass', 'through.json.gz')), 'the gzip variable reached Pulumi');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});
