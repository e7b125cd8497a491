/**
 * The layering rules of `npm run lint` (.dependency-cruiser.cjs) can fail: a canary tree with one
 * forbidden import of each kind is cruised with the project's own configuration, and every rule that
 * should fire does. Then the real tree is cruised and must be clean.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

function cruise(cwd: string, paths: string[]): { status: number | null; violations: Violation[]; stderr: string } {
  const result = spawnSync(DEPCRUISE, [...paths, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const parsed = result.stdout ? (JSON.parse(result.stdout) as { summary: { violations: Violation[] } }) : { summary: { violations: [] } };
  return { status: result.status, violations: parsed.summary.violations, stderr: result.stderr };
}

describe('npm run lint: the layering rules', function () {
  this.timeout(120_000);

  it('a canary tree with forbidden imports fails, naming each rule', () => {
    const canary = mkdtempSync(join(tmpdir(), 'quota-state-canary-'));
    try {
      cpSync(join(ROOT, '.dependency-cruiser.cjs'), join(canary, '.dependency-cruiser.cjs'));
      cpSync(join(ROOT, 'tsconfig.json'), join(canary, 'tsconfig.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(canary, 'node_modules'));
      const files: Record<string, string> = {
        'shared/protocol.ts': 'export const PING = 1;\n',
        'shared/codes.ts': 'export const X = 1;\n',
        'shared/state/checks.ts': "import { Y } from './codes';\nexport const Z = Y;\n",
        // A code table importing a check; the check importing it back: a circle too.
        'shared/state/codes.ts': "import { Z } from './checks';\nexport const Y = 1;\nexport const W = Z;\n",
        'shared/state/lens.ts': "import { PING } from '../protocol';\nexport const L = PING;\n",
        'shared/state/hover.ts': "import type { Hover } from 'vscode-languageserver-types';\nexport type H = Hover;\n",
        'shared/io.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        'shared/paths.ts': "import { dirname } from 'node:path';\nexport const up = dirname;\n",
        'shared/up.ts': "import { S } from '../server/server';\nexport const U = S;\n",
        'server/server.ts': "import { C } from '../cli/main';\nexport const S = C;\n",
        'cli/main.ts': 'export const C = 1;\n',
        // The CLI reads files through shared/node/, as the server does, and imports nothing of the server.
        'shared/node/regularFiles.ts': "import { readFileSync } from 'node:fs';\nexport const F = readFileSync;\n",
        'cli/files.ts': "import { F } from '../shared/node/regularFiles';\nimport { S } from '../server/server';\nexport const G = [F, S];\n",
        // The core never imports the Node I/O; the client reaches files only through it, and nothing reaches into dist/.
        'shared/quota/usesNode.ts': "import { F } from '../node/regularFiles';\nexport const N = F;\n",
        'client/reads.ts': "import { readFileSync } from 'node:fs';\nimport { F } from '../shared/node/regularFiles';\nexport const R = [readFileSync, F];\n",
        'dist/cli/bundle.js': 'exports.B = 1;\n',
        'cli/bundled.ts': "import { B } from '../dist/cli/bundle.js';\nexport const D = B;\n",
        // The backend kind has its door too.
        'shared/backend/store.ts': 'export const STORE = 1;\n',
        'shared/backend/index.ts': "import { STORE } from './store';\nexport const createBackendService = STORE;\n",
        'cli/backendDoor.ts': "import { STORE } from '../shared/backend/store';\nimport { createBackendService } from '../shared/backend';\nexport const K = STORE + createBackendService;\n",
        'client/extension.ts': "import { S } from '../server/server';\nexport const E = S;\n",
        // Outside a kind, only its door: index.ts or vocabulary.ts; inside, any file.
        'shared/state/inner.ts': 'export const I = 1;\n',
        'shared/state/index.ts': "import { I } from './inner';\nexport const DOOR = I;\n",
        'server/door.ts': "import { I } from '../shared/state/inner';\nimport { DOOR } from '../shared/state';\nexport const X = I + DOOR;\n",
        // The engine runs in the server: the client may import its types, never its code.
        'shared/quota/index.ts': 'export const createQuotaService = 1;\nexport type Explained = number;\n',
        'client/dashboard.ts': "import { createQuotaService, type Explained } from '../shared/quota';\nexport const D: Explained = createQuotaService;\n",
        'client/types.ts': "import type { Explained } from '../shared/quota';\nexport type T = Explained;\n",
        // A product module reaching into the tests fails; a spec beside its module may.
        'test/helpers/spec.ts': 'export const T = 1;\n',
        'shared/state/rule.ts': "import { T } from '../../test/helpers/spec';\nexport const R = T;\n",
        'shared/state/rule.test.ts': "import { T } from '../../test/helpers/spec';\nexport const Spec = T;\n",
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(canary, path)), { recursive: true });
        writeFileSync(join(canary, path), text);
      }
      const result = cruise(canary, ['shared', 'server', 'cli', 'client', 'test']);
      assert.ok(result.violations.length > 0, `the canary should fail lint: ${result.stderr}`);
      // And the way npm run lint runs it, the exit code says so.
      const plain = spawnSync(DEPCRUISE, ['shared', 'server', 'cli', 'client', '--config', '.dependency-cruiser.cjs'], { cwd: canary, encoding: 'utf8' });
      assert.notEqual(plain.status, 0, plain.stdout);
      const fired = new Set(result.violations.map((v) => v.rule.name));
      for (const rule of [
        'no-circular',
        'code-tables-are-leaves',
        'core-below-the-protocol',
        'lsp-types-only-in-the-server',
        'shared-has-no-editor-and-no-io',
        'shared-imports-no-node-module',
        'shared-is-the-ground-floor',
        'language-server-not-cli',
        'cli-only-the-shared-node-io',
        'client-not-server-or-api',
        'engine-in-the-server-only',
        'one-door-per-kind',
        'product-not-tests',
        'node-io-only-from-the-programs',
        'node-io-is-the-only-node-door-of-the-client',
        'nothing-from-dist',
      ]) {
        assert.ok(fired.has(rule), `rule ${rule} did not fire (fired: ${[...fired].join(', ')})`);
      }
      assert.deepEqual(
        result.violations.filter((v) => v.from.endsWith('.test.ts')).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
        [],
        'a spec beside its module may import the test helpers',
      );
      assert.deepEqual(
        result.violations.filter((v) => v.rule.name === 'one-door-per-kind').map((v) => `${v.from} → ${v.to}`),
        ['cli/backendDoor.ts → shared/backend/store.ts', 'server/door.ts → shared/state/inner.ts'],
        'only the door is imported from outside, and the kind reaches inside itself',
      );
      assert.deepEqual(
        result.violations.filter((v) => v.from === 'client/types.ts').map((v) => v.rule.name),
        [],
        "the client may import the engine's types",
      );
      assert.deepEqual(
        result.violations.filter((v) => v.from === 'client/reads.ts').map((v) => `${v.rule.name} → ${v.to}`),
        ['node-io-is-the-only-node-door-of-the-client → fs'],
        'the client reaches files through shared/node/ only',
      );
      assert.deepEqual(
        result.violations.filter((v) => v.from.startsWith('shared/node/')).map((v) => v.rule.name),
        [],
        'shared/node/ may use Node',
      );
    } finally {
      rmSync(canary, { recursive: true, force: true });
    }
  });

  it('the project itself has no import cycle and no import running back up', () => {
    const result = cruise(ROOT, ['shared', 'server', 'cli', 'client', 'quota-api', 'scripts', 'test']);
    assert.deepEqual(
      result.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`),
      [],
    );
    const plain = spawnSync(DEPCRUISE, ['shared', 'server', 'cli', 'client', 'quota-api', 'scripts', 'test', '--config', '.dependency-cruiser.cjs'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(plain.status, 0, plain.stdout + plain.stderr);
  });
});
