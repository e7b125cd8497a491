/**
 * The README's first screen serves a newcomer, and its commands work as written: the set-up commands,
 * every `npx quota-state …` line from the checkout (the bin is not on PATH after `npm ci`; the
 * backend's lines on the shipped examples/pulumi-backend, the writing ones on a copy of it), and no
 * npm setting that npm itself only warns about. docs/cli.md's `npx` form works with the npm at hand.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { version } from '../../package.json';
import { ROOT } from '../helpers/processes';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** `VAR=value … npx quota-state `: the variables a README line sets, then the command. */
const ENVIRONMENT = /^((?:[A-Z_]+=\S* )*)npx quota-state /;
/** What a 50-line terminal or the top of a repository page shows. */
const firstScreen = readme.split('\n').slice(0, 50).join('\n');

describe('the README', () => {
  it('shows on its first screen what the product is, a picture, the two set-up commands, npx quota-state and the links', () => {
    assert.match(firstScreen, /^# Quota & State\n/);
    assert.match(firstScreen, /!\[[^\]]+\]\(images\/screenshot-[\w-]+\.png\)/);
    assert.match(firstScreen, /^npm ci && npm start\b/m);
    assert.match(firstScreen, /^npm test\b/m);
    assert.match(firstScreen, /^npx quota-state check \S+/m);
    for (const [, target] of firstScreen.matchAll(/\]\((docs\/[\w.-]+\.md)(?:#[\w-]+)?\)/g)) assert.ok(existsSync(join(ROOT, target)), `${target} exists`);
    assert.ok(readme.split('\n').length < 150, `the reference lives in docs/, not in a README of ${readme.split('\n').length} lines`);
  });

  describe('runs every `npx quota-state` line of its first screen from the checkout as written', () => {
    const example = 'examples/pulumi-backend';
    let scratch: string;
    before(() => (scratch = mkdtempSync(join(tmpdir(), 'quota-state-readme-'))));
    after(() => rmSync(scratch, { recursive: true, force: true }));
    /** Each command's exit status and what it prints: `check` finds the example's problems on purpose. */
    const expected: Record<string, { status: number; stdout: RegExp }> = {
      check: { status: 1, stdout: /^examples\/webshop\.state\.json:\d+:\d+: error [\s\S]*\n1 file checked, 4 problems\n$/ },
      evaluate: { status: 0, stdout: /^Forgejo [\d.]+ rules[\s\S]*\bbob\b/ },
      graph: { status: 0, stdout: /^strict digraph \{\n[\s\S]*->[\s\S]*\n\}\n$/ },
      'backend ls': { status: 0, stdout: /^file:\/\/examples\/pulumi-backend \(project layout, 1 stack\)\n\nSTACK .*\norganization\/hist\/dev / },
      history: { status: 0, stdout: /^organization\/hist\/dev: 9 updates listed, newest first\n\nVERSION /m },
      diff: { status: 0, stdout: /^(\d+ (added|removed|renamed|replaced|changed|same)(, )?)+.*\n[+~-]/ },
      restore: {
        status: 0,
        stdout: /^restored organization\/hist\/dev from .*\/\.pulumi\/history\/hist\/dev\/dev-\d+\.checkpoint\.json \(version 3, entry \d+\): .*; the state it replaced is in .*dev\.json\.bak$/m,
      },
      'backend prune': { status: 0, stdout: /^organization\/hist\/dev: removed \d+ files .*history 9 → 5[\s\S]*^freed /m },
      'secrets check': { status: 0, stdout: /^file:\/\/examples\/pulumi-backend\/\.pulumi\/stacks\/hist\/dev\.json: 3 secrets \(3 encrypted\); no problems\n$/ },
    };
    // A line may set variables first (`PULUMI_CONFIG_PASSPHRASE=… npx quota-state …`), as a shell runs it.
    const lines = firstScreen
      .split('\n')
      .filter((line) => ENVIRONMENT.test(line))
      .map((line) => line.replace(/\s+#.*$/, ''));
    const filesOf = (folder: string) => readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
    const exampleFiles = filesOf(join(ROOT, example));

    it('has a line for each command it shows, and knows what each prints', () => {
      assert.ok(lines.length >= 8, lines.join('\n'));
      for (const line of lines) assert.ok(commandOf(line) in expected, `what does "${line}" print?`);
    });

    for (const line of lines) {
      it(line, () => {
        const command = commandOf(line);
        const variables = ENVIRONMENT.exec(line)![1];
        const env = Object.fromEntries(
          variables
            .split(' ')
            .filter(Boolean)
            .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
        );
        let args = line.slice(variables.length).split(/ +/).slice(2);
        // The writing ones run on a copy of the example, as written but for the backend URL.
        const writes = command === 'restore' || command === 'backend prune';
        if (writes) {
          assert.ok(args.includes(`file://${example}`), `${line} names the shipped example`);
          const copy = join(mkdtempSync(join(scratch, 'backend-')), 'pulumi-backend');
          cpSync(join(ROOT, example), copy, { recursive: true });
          args = args.map((arg) => (arg === `file://${example}` ? `file://${copy}` : arg));
        }
        const result = spawnSync('npx', ['--no-install', 'quota-state', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
        assert.equal(result.status, expected[command].status, `${line}\n${result.stderr}`);
        assert.match(result.stdout, expected[command].stdout, `${line}\n${result.stdout}${result.stderr}`);
        if (expected[command].status === 0) assert.equal(result.stderr, '', line);
        assert.deepEqual(filesOf(join(ROOT, example)), exampleFiles, `${line} leaves the shipped example as it was`);
      });
    }
  });

  it("sets no npm_config_unsafe_perm outside code-server's own install, which npm 11 only warns about", () => {
    const files = ['.ci/run', 'package.json', 'scripts/run-tests.mjs', 'scripts/start.mjs', 'scripts/test-extension.mjs'];
    for (const file of files) assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /unsafe[-_]perm/, file);
  });
});

/** The command a README line runs: `check`, `backend ls`, `secrets check`, …. */
function commandOf(line: string): string {
  const [, , first, second] = line.slice(ENVIRONMENT.exec(line)![1].length).split(/ +/);
  return first === 'backend' || first === 'secrets' ? `${first} ${second}` : first;
}

describe('docs/cli.md', () => {
  it('gives the `npx quota-state … --version` form that works with the npm at hand', () => {
    const cli = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    const forms = [...cli.matchAll(/`(npx quota-state [^`]*--version)`/g)].map((match) => match[1]);
    assert.ok(forms.length > 0, 'docs/cli.md says how to run --version from the checkout');
    for (const form of forms) {
      const result = spawnSync('npx', ['--no-install', ...form.split(' ').slice(1)], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(result.status, 0, `${form}: ${result.stderr}`);
      assert.equal(result.stdout.trim(), version, form);
    }
  });
});
