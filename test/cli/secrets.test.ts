/**
 * `quota-state secrets get|check` judged by the real Pulumi v3.274.1, offline: on the real history
 * (scripts/pulumi-histories.mjs: a secret config value, a provider's secret input, secret outputs) and
 * on stacks whose plaintext secrets `pulumi stack import` encrypted (test/helpers/secretStacks.ts).
 * Both ways: what Pulumi encrypted we decrypt to what `pulumi stack export --show-secrets`, `pulumi
 * config --show-secrets` and `pulumi stack history --show-secrets` show; what we encrypt Pulumi reads
 * back. And `secrets check` on states broken on purpose, each also shown to Pulumi. No secret value,
 * nor the passphrase, ever appears on stderr, nor on stdout but for `secrets get`'s one value.
 */
import { strict as assert } from 'node:assert';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { ensureHistories } from '../../scripts/pulumi-histories.mjs';
import { passphraseCrypter } from '../../shared/backend/secrets/crypter';
import { openConfig } from '../../shared/backend/secrets/reveal';
import { passphraseSaltOf, secretsProviderOf } from '../../shared/backend/secrets/walk';
import { findSecrets, structureOf } from '../../shared/state/vocabulary';
import { decodeFile } from '../../shared/text/inflate';
import { runQuotaState, type ProcessResult } from '../helpers/processes';
import { DiyBackend, pulumiOnHistoryBackend, qualifiedStack } from '../helpers/realPulumi';
import { importSecrets, plaintextSecret, SECRET_CONFIG, SECRET_VALUES, setSecretConfig } from '../helpers/secretStacks';

type Json = Record<string, unknown>;
const PASSPHRASE = 'correct horse battery staple';
const HISTORY_PASSPHRASE = 'history-passphrase';
const scratch = mkdtempSync(join(tmpdir(), 'quota-state-secrets-'));
const home = join(scratch, 'home');
mkdirSync(home);

/** Every secret text these tests know (values, their JSON, config values, the passphrases; not 5432 or true, which any text may hold): none may leak into a message. */
const SECRET_TEXTS = [
  ...SECRET_VALUES.flatMap(({ value }) => (typeof value === 'string' ? [value] : typeof value === 'object' ? [JSON.stringify(value)] : [])),
  's3cret-obj',
  ...SECRET_CONFIG.map(({ value }) => value.trim()).filter((value) => value !== ''),
  's3cr3t',
  'pw-v1',
  PASSPHRASE,
  HISTORY_PASSPHRASE,
];
/** Everything our commands printed that must hold no secret: all stderr, and stdout of all but a successful `get`. */
const printed: string[] = [];

/** Our CLI, with no PULUMI_* of the caller's but the passphrase given (`null`: none). */
function ours(args: string[], options: { cwd?: string; passphrase?: string | null; env?: Json } = {}): ProcessResult {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const name of Object.keys(env)) if (name.startsWith('PULUMI_')) delete env[name];
  if (options.passphrase !== null) env.PULUMI_CONFIG_PASSPHRASE = options.passphrase ?? PASSPHRASE;
  Object.assign(env, options.env);
  const result = runQuotaState(args, { cwd: options.cwd ?? scratch, env });
  printed.push(result.stderr);
  if (!(args[0] === 'secrets' && args[1] === 'get' && result.status === 0)) printed.push(result.stdout);
  return result;
}

/** `secrets get`'s stdout read back: a string as it is (one newline added), anything else JSON. */
function valueOf(stdout: string, expected: unknown): unknown {
  return typeof expected === 'string' ? stdout.replace(/\n$/, '') : JSON.parse(stdout);
}

/** The secret objects of a document by their JSON path (`/resources/0/outputs/x`). */
function secretObjects(value: unknown, path = '', found = new Map<string, Json>()): Map<string, Json> {
  if (Array.isArray(value)) value.forEach((element, index) => secretObjects(element, `${path}/${index}`, found));
  else if (typeof value === 'object' && value !== null) {
    if ((value as Json)['4dabf18193072939515e22adb298388d'] === '1b47061264138c4ac30d75fd1eb44270') found.set(path, value as Json);
    else for (const [key, member] of Object.entries(value)) secretObjects(member, `${path}/${key}`, found);
  }
  return found;
}

/** Our decryption of every ciphertext of a state, by JSON path: the library the CLI runs. */
async function decryptAll(text: string, passphrase: string): Promise<Map<string, string>> {
  const structure = structureOf(JSON.parse(text));
  const crypter = await passphraseCrypter(passphrase, passphraseSaltOf(secretsProviderOf(structure)!)!);
  const result = new Map<string, string>();
  for (const site of findSecrets(structure)) {
    if (site.secret.form !== 'ciphertext') continue;
    const relative = site.jsonPath.slice(structure.deploymentPath!.length);
    result.set(`/${relative.join('/')}`, await crypter.decrypt(site.secret.ciphertext));
  }
  return result;
}

/** The plaintext of every secret of `pulumi stack export --show-secrets`'s deployment, by JSON path. */
function shownByPulumi(exported: string): Map<string, string> {
  const deployment = (JSON.parse(exported) as Json).deployment;
  return new Map([...secretObjects(deployment)].map(([path, secret]) => [path, secret.plaintext as string]));
}

describe('quota-state secrets, judged by the real Pulumi v3.274.1', function () {
  this.timeout(20 * 60 * 1000);
  let backend: DiyBackend;
  let backendUrl: string;
  let devText: string;
  before(() => {
    backend = new DiyBackend({ passphrase: PASSPHRASE });
    backendUrl = `file://${join(backend.root, 'backend')}`;
    devText = readFileSync(importSecrets(backend, 'vec', 'dev'), 'utf8');
    setSecretConfig(backend, 'vec', 'dev');
    importSecrets(backend, 'vec', 'prod');
  });
  after(() => {
    backend?.dispose();
    rmSync(scratch, { recursive: true, force: true });
  });

  describe('Pulumi encrypts, we decrypt', () => {
    it('every secret of the real history, in every layout and compression, is what `pulumi stack export --show-secrets` shows', async () => {
      const { pulumi, backends } = ensureHistories({ log: (line) => console.log(`      ${line}`) });
      for (const history of backends) {
        const exported = pulumiOnHistoryBackend(pulumi, history.folder, ['stack', 'export', '--show-secrets', '--stack', history.stack], scratch);
        assert.equal(exported.status, 0, exported.stderr);
        const theirs = shownByPulumi(exported.stdout);
        const file = join(history.folder, '.pulumi', 'stacks', ...(history.layout === 'project' ? ['hist'] : []), `dev.json${{ plain: '', gzip: '.gz', zstd: '.zst' }[history.compression]}`);
        const text = decodeFile(readFileSync(file), { name: file, maxBytes: 1 << 28 }).text;
        const mine = await decryptAll(text, HISTORY_PASSPHRASE);
        assert.ok(mine.size >= 3, `${history.layout} ${history.compression}: ${mine.size} secrets`);
        assert.deepEqual(mine, theirs, `${history.layout} ${history.compression}`);
        // And the CLI on the STACK prints each one's value.
        for (const site of findSecrets(structureOf(JSON.parse(text)))) {
          if (site.pending || site.urn === undefined) continue;
          const path = site.path.map((element, index) => (typeof element === 'number' ? `[${element}]` : index === 0 ? element : `.${element}`)).join('');
          const result = ours(['secrets', 'get', history.stack, site.urn, path, '--backend', `file://${history.folder}`], {
            passphrase: HISTORY_PASSPHRASE,
            env: { PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true' },
          });
          assert.equal(result.status, 0, result.stderr);
          assert.equal(result.stderr, '');
          const relative = site.jsonPath.slice(structureOf(JSON.parse(text)).deploymentPath!.length).join('/');
          assert.deepEqual(valueOf(result.stdout, JSON.parse(theirs.get(`/${relative}`)!)), JSON.parse(theirs.get(`/${relative}`)!));
        }
      }
    });

    it('the config values of every history entry are what `pulumi stack history --json --show-secrets` shows', async () => {
      const { pulumi, backends } = ensureHistories();
      const history = backends.find((b) => b.layout === 'project' && b.compression === 'plain')!;
      const state = JSON.parse(readFileSync(join(history.folder, '.pulumi', 'stacks', 'hist', 'dev.json'), 'utf8')) as Json;
      const salt = passphraseSaltOf(secretsProviderOf(structureOf(state))!)!;
      // Pulumi decrypts history config with the project's stack config: a project folder with the stack's salt.
      const project = mkdtempSync(join(scratch, 'hist-project-'));
      writeFileSync(join(project, 'Pulumi.yaml'), 'name: hist\nruntime: go\n');
      writeFileSync(join(project, 'Pulumi.dev.yaml'), `encryptionsalt: ${salt}\n`);
      const shown = pulumiOnHistoryBackend(pulumi, history.folder, ['stack', 'history', '--json', '--show-secrets', '--stack', history.stack], project);
      assert.equal(shown.status, 0, shown.stderr);
      const theirs = (JSON.parse(shown.stdout) as Array<{ config: Record<string, { value?: string; secret: boolean }> }>).map((entry) =>
        Object.fromEntries(Object.entries(entry.config).map(([key, value]) => [key, value.value])),
      );
      const folder = join(history.folder, '.pulumi', 'history', 'hist', 'dev');
      const files = readdirSync(folder)
        .filter((name) => name.endsWith('.history.json'))
        .sort()
        .reverse();
      const crypter = await passphraseCrypter(HISTORY_PASSPHRASE, salt);
      const mine = await Promise.all(files.map((name) => openConfig((JSON.parse(readFileSync(join(folder, name), 'utf8')) as { config: Json }).config, (c) => crypter.decrypt(c))));
      assert.ok(theirs.some((config) => config['hist:token'] === 's3cr3t'));
      assert.deepEqual(mine, theirs);
    });

    it('`secrets get` prints each value Pulumi encrypted on import: strings, numbers, an object, the three PATH forms; STACK and FILE alike', () => {
      const urnOf = (entry: (typeof SECRET_VALUES)[number]) => entry.urn('dev', 'vec');
      for (const entry of SECRET_VALUES) {
        for (const operand of [['vec/dev', '--backend', backendUrl], [backend.stackFile('vec', 'dev')]]) {
          const result = ours(['secrets', 'get', operand[0], urnOf(entry), entry.path, ...operand.slice(1)]);
          assert.equal(result.status, 0, `${entry.path}: ${result.stderr}`);
          assert.equal(result.stderr, '', entry.path);
          assert.deepEqual(valueOf(result.stdout, entry.value), entry.value, entry.path);
          if (typeof entry.value === 'string') assert.equal(result.stdout, `${entry.value}\n`, 'a string as it is');
        }
      }
      // A member inside a secret object, and an equivalent spelling of a path.
      const inside = ours(['secrets', 'get', 'vec/dev', SECRET_VALUES[0].urn('dev', 'vec'), 'outputs.credentials.tags[1]', '--backend', backendUrl]);
      assert.equal(inside.stdout, 'y\n');
      const quoted = ours(['secrets', 'get', 'vec/dev', SECRET_VALUES[0].urn('dev', 'vec'), 'outputs["dbPassword"]', '--backend', backendUrl]);
      assert.equal(quoted.stdout, 'hunter2\n');
    });

    it('every secret of the imported stack is what `pulumi stack export --show-secrets` shows', async () => {
      const exported = backend.ok(['stack', 'export', '--show-secrets', '--stack', qualifiedStack('vec', 'dev')]).stdout;
      const mine = await decryptAll(devText, PASSPHRASE);
      assert.equal(mine.size, SECRET_VALUES.length);
      assert.deepEqual(mine, shownByPulumi(exported));
    });

    it('every `pulumi config set --secret` value is what `pulumi config --json --show-secrets` shows', async () => {
      const file = parseYaml(readFileSync(join(backend.workdir, 'Pulumi.dev.yaml'), 'utf8')) as { encryptionsalt: string; config: Json };
      const crypter = await passphraseCrypter(PASSPHRASE, file.encryptionsalt);
      const mine = await openConfig(file.config, (c) => crypter.decrypt(c));
      const theirs = JSON.parse(backend.ok(['config', '--json', '--show-secrets', '--stack', qualifiedStack('vec', 'dev')]).stdout) as Record<string, { value: string; objectValue?: unknown }>;
      assert.deepEqual(Object.keys(mine).sort(), Object.keys(theirs).sort());
      for (const [key, value] of Object.entries(theirs)) assert.deepEqual(mine[key], value.objectValue ?? value.value, key);
    });
  });

  describe('we encrypt, Pulumi decrypts', () => {
    it('ciphertexts we wrote into a stack file: `pulumi stack export --show-secrets` shows our values', async () => {
      const state = JSON.parse(devText) as Json;
      const deployment = (state.checkpoint as Json).latest as Json;
      const crypter = await passphraseCrypter(PASSPHRASE, passphraseSaltOf(secretsProviderOf(structureOf(state))!)!);
      const expected = new Map<string, unknown>();
      let n = 0;
      for (const [path, secret] of secretObjects(deployment)) {
        const value = n % 2 ? { ours: n, list: [n, 'x'] } : `ours-${n}`;
        secret.ciphertext = await crypter.encrypt(JSON.stringify(value));
        expected.set(path, value);
        n++;
      }
      backend.initStack('vec', 'mine');
      const mine = JSON.stringify({ ...state, checkpoint: { ...(state.checkpoint as Json), stack: qualifiedStack('vec', 'mine') } }).replace(/urn:pulumi:dev::/g, 'urn:pulumi:mine::');
      backend.writeStack('vec', 'mine', mine);
      const exported = backend.ok(['stack', 'export', '--show-secrets', '--stack', qualifiedStack('vec', 'mine')]).stdout;
      const shown = new Map([...shownByPulumi(exported)].map(([path, text]) => [path, JSON.parse(text) as unknown]));
      assert.equal(shown.size, SECRET_VALUES.length);
      assert.deepEqual(shown, expected);
    });

    it('a secure config value we wrote into Pulumi.<stack>.yaml: `pulumi config get` prints it', async () => {
      const path = join(backend.workdir, 'Pulumi.dev.yaml');
      const file = parseYaml(readFileSync(path, 'utf8')) as { encryptionsalt: string; config: Json };
      const crypter = await passphraseCrypter(PASSPHRASE, file.encryptionsalt);
      const before = readFileSync(path, 'utf8');
      try {
        writeFileSync(path, stringifyYaml({ ...file, config: { ...file.config, 'vec:ours': { secure: await crypter.encrypt('written by quota-state ✓') } } }));
        assert.equal(backend.ok(['config', 'get', '--stack', qualifiedStack('vec', 'dev'), 'vec:ours']).stdout, 'written by quota-state ✓\n');
      } finally {
        writeFileSync(path, before);
      }
    });
  });

  describe('secrets check', () => {
    /** dev's stack file with `edit` applied to its stack resource's outputs; written to a file of its own. */
    function brokenState(name: string, edit: (outputs: Json, prod: Json) => void): string {
      const state = JSON.parse(devText) as Json;
      const prod = JSON.parse(readFileSync(backend.stackFile('vec', 'prod'), 'utf8')) as Json;
      const outputsOf = (s: Json) => (((s.checkpoint as Json).latest as Json).resources as Json[])[0].outputs as Json;
      edit(outputsOf(state), outputsOf(prod));
      const file = join(scratch, `${name}.json`);
      writeFileSync(file, JSON.stringify(state));
      return file;
    }
    const cipherOf = (value: unknown) => (value as Json).ciphertext as string;
    const stackUrn = 'urn:pulumi:dev::vec::pulumi:pulumi:Stack::vec-dev';

    /** Pulumi's own verdict on a state: dev's stack file replaced by it for one `pulumi stack export --show-secrets`. */
    function pulumiReads(file: string): { status: number | null; stderr: string } {
      const stackFile = backend.stackFile('vec', 'dev');
      cpSync(file, stackFile);
      try {
        return backend.run(['stack', 'export', '--show-secrets', '--stack', qualifiedStack('vec', 'dev')]);
      } finally {
        writeFileSync(stackFile, devText);
      }
    }

    it('a clean stack: exit 0, its secrets counted, its config checked too', () => {
      const result = ours(['secrets', 'check', 'vec/dev', '--backend', backendUrl], { cwd: backend.workdir });
      assert.equal(result.status, 0, result.stdout + result.stderr);
      assert.match(result.stdout, /dev\.json: 10 secrets \(10 encrypted\); no problems\n$/);
      assert.equal(result.stderr, '');
    });

    const cases: Array<{ name: string; edit: (outputs: Json, prod: Json) => void; message: RegExp; pulumi: RegExp | 'accepts' }> = [
      {
        name: "a ciphertext from another stack's salt",
        edit: (outputs, prod) => (outputs.dbPassword = prod.dbPassword),
        message: /outputs\.dbPassword: does not decrypt with this stack's key: Pulumi\.prod\.yaml's encryptionsalt opens it/,
        pulumi: /could not deserialize deployment: cipher: message authentication failed/,
      },
      {
        name: 'a secret stored in plaintext',
        edit: (outputs) => (outputs.port = plaintextSecret(5432)),
        message: /outputs\.port: a secret stored in plaintext/,
        pulumi: 'accepts',
      },
      {
        name: 'a truncated ciphertext (no longer base64)',
        edit: (outputs) => ((outputs.ratio as Json).ciphertext = cipherOf(outputs.ratio).slice(0, -3)),
        message: /outputs\.ratio: a damaged ciphertext \(bad value: illegal base64 data\)/,
        pulumi: /could not deserialize deployment: bad value: illegal base64 data at input byte \d+/,
      },
      {
        name: 'a ciphertext truncated by whole base64 groups',
        edit: (outputs) => ((outputs.flag as Json).ciphertext = cipherOf(outputs.flag).slice(0, -4)),
        message: /outputs\.flag: does not decrypt with this stack's key, nor with any other at hand/,
        pulumi: /could not deserialize deployment: cipher: message authentication failed/,
      },
    ];
    for (const { name, edit, message, pulumi } of cases) {
      it(`${name}: located and explained, exit 1; and what Pulumi makes of it`, () => {
        const file = brokenState(name.replace(/\W+/g, '-'), edit);
        const result = ours(['secrets', 'check', file], { cwd: backend.workdir });
        assert.equal(result.status, 1, result.stdout + result.stderr);
        assert.match(result.stdout, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ${stackUrn.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} ${message.source}`, 'm'));
        assert.match(result.stdout, /; 1 problem\n$/);
        const theirs = pulumiReads(file);
        if (pulumi === 'accepts') assert.equal(theirs.status, 0, theirs.stderr);
        else {
          assert.notEqual(theirs.status, 0);
          assert.match(theirs.stderr, pulumi);
        }
      });
    }

    it('all of them at once, as JSON', () => {
      const file = brokenState('all', (outputs, prod) => cases.forEach((c) => c.edit(outputs, prod)));
      const result = ours(['secrets', 'check', file, '--format', 'json'], { cwd: backend.workdir });
      assert.equal(result.status, 1, result.stderr);
      const report = JSON.parse(result.stdout) as { secrets: Json; findings: Array<{ path: string; kind: string; problem?: { kind: string } }>; checked: boolean };
      assert.deepEqual(report.secrets, { ciphertext: 9, plaintext: 1, malformed: 0 });
      assert.equal(report.checked, true);
      assert.deepEqual(
        report.findings.map((f) => [f.path, f.problem?.kind ?? f.kind]),
        [
          ['outputs.dbPassword', 'other-key'],
          ['outputs.flag', 'no-key'],
          ['outputs.port', 'plaintext'],
          ['outputs.ratio', 'damaged'],
        ],
      );
    });

    it('the other stack found in the backend too, without its config file at hand', () => {
      const file = brokenState('copied', (outputs, prod) => (outputs.dbPassword = prod.dbPassword));
      const stackFile = backend.stackFile('vec', 'dev');
      cpSync(file, stackFile);
      try {
        const result = ours(['secrets', 'check', 'vec/dev', '--backend', backendUrl], { cwd: scratch });
        assert.equal(result.status, 1, result.stderr);
        assert.match(result.stdout, /outputs\.dbPassword: does not decrypt with this stack's key: the salt of stack organization\/vec\/prod \(.*prod\.json\) opens it/);
      } finally {
        writeFileSync(stackFile, devText);
      }
    });

    it('a wrong passphrase: "incorrect passphrase" on stderr, exit 2, no value anywhere; Pulumi refuses it too', () => {
      for (const args of [
        ['secrets', 'check', 'vec/dev'],
        ['secrets', 'get', 'vec/dev', stackUrn, 'outputs.dbPassword'],
      ]) {
        const result = ours([...args, '--backend', backendUrl], { passphrase: 'not the passphrase' });
        assert.equal(result.status, 2, result.stdout + result.stderr);
        assert.match(result.stderr, /^quota-state: incorrect passphrase: /);
        assert.equal(result.stdout, '');
      }
      const theirs = backend.run(['stack', 'export', '--show-secrets', '--stack', qualifiedStack('vec', 'dev')], { PULUMI_CONFIG_PASSPHRASE: 'not the passphrase' });
      assert.notEqual(theirs.status, 0);
      assert.match(theirs.stderr, /incorrect passphrase/);
    });

    it('no passphrase: plaintext secrets still reported, then exit 2 asking for one; `get` of a plaintext secret needs none', () => {
      const file = brokenState('no-passphrase', (outputs) => (outputs.port = plaintextSecret(5432)));
      const result = ours(['secrets', 'check', file], { passphrase: null });
      assert.equal(result.status, 2);
      assert.match(result.stdout, /outputs\.port: a secret stored in plaintext/);
      assert.match(result.stdout, /in plaintext, the encrypted ones not checked \(no passphrase\)\n$/);
      assert.match(result.stderr, /set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE/);
      const get = ours(['secrets', 'get', file, stackUrn, 'outputs.port'], { passphrase: null });
      assert.equal(get.status, 0, get.stderr);
      assert.equal(get.stdout, '5432\n');
      const encrypted = ours(['secrets', 'get', file, stackUrn, 'outputs.dbPassword'], { passphrase: null });
      assert.equal(encrypted.status, 2);
      assert.match(encrypted.stderr, /set PULUMI_CONFIG_PASSPHRASE/);
    });

    it('PULUMI_CONFIG_PASSPHRASE_FILE: its content trimmed, as Pulumi reads it', () => {
      const phraseFile = join(scratch, 'phrase.txt');
      writeFileSync(phraseFile, `  ${PASSPHRASE} \n`);
      const theirs = backend.run(['config', 'get', '--stack', qualifiedStack('vec', 'dev'), 'vec:token'], { PULUMI_CONFIG_PASSPHRASE: undefined, PULUMI_CONFIG_PASSPHRASE_FILE: phraseFile });
      assert.equal(theirs.status, 0, theirs.stderr);
      const result = ours(['secrets', 'get', 'vec/dev', stackUrn, 'outputs.dbPassword', '--backend', backendUrl], { passphrase: null, env: { PULUMI_CONFIG_PASSPHRASE_FILE: phraseFile } });
      assert.equal(result.status, 0, result.stderr);
      assert.equal(result.stdout, 'hunter2\n');
    });

    it("a secure value of Pulumi.<stack>.yaml from another stack's salt is a finding of the config file", async () => {
      const path = join(backend.workdir, 'Pulumi.dev.yaml');
      const before = readFileSync(path, 'utf8');
      const prod = parseYaml(readFileSync(join(backend.workdir, 'Pulumi.prod.yaml'), 'utf8')) as { encryptionsalt: string };
      const foreign = await (await passphraseCrypter(PASSPHRASE, prod.encryptionsalt)).encrypt('from prod');
      try {
        writeFileSync(path, `${before.trimEnd()}\n  vec:copied:\n    secure: ${foreign}\n`);
        const result = ours(['secrets', 'check', 'vec/dev', '--backend', backendUrl], { cwd: backend.workdir });
        assert.equal(result.status, 1, result.stdout + result.stderr);
        assert.match(result.stdout, /^Pulumi\.dev\.yaml: config vec:copied: does not decrypt with this stack's key: Pulumi\.prod\.yaml's encryptionsalt opens it/m);
      } finally {
        writeFileSync(path, before);
      }
    });
  });

  describe('secrets get refusals', () => {
    const stackUrn = 'urn:pulumi:dev::vec::pulumi:pulumi:Stack::vec-dev';
    const cases: Array<[string, string[], number, RegExp]> = [
      ['a value that is no secret', [stackUrn, 'outputs.visible'], 1, /outputs\.visible of .*: the value there is not a secret/],
      ['no such property', [stackUrn, 'outputs.nope'], 1, /there is no such property/],
      ['no such resource', ['urn:pulumi:dev::vec::x:y:Z::nope', 'outputs.x'], 1, /no resource urn:pulumi:dev::vec::x:y:Z::nope in /],
      ['a path that does not parse', [stackUrn, 'outputs['], 2, /PATH "outputs\[" is no property path: missing closing bracket/],
      ['too few operands', [stackUrn], 2, /secrets get takes a STACK or FILE, a URN and a PATH/],
    ];
    for (const [name, args, status, message] of cases) {
      it(`${name}: exit ${status}`, () => {
        const result = ours(['secrets', 'get', 'vec/dev', ...args, '--backend', backendUrl]);
        assert.equal(result.status, status, result.stderr);
        assert.match(result.stderr, message);
        assert.equal(result.stdout, '');
      });
    }
  });

  // Last: mocha runs a suite's own tests before its nested suites.
  describe('in the end', () => {
    it('no secret value nor passphrase appears in anything our commands printed but a `secrets get` value', () => {
      assert.ok(printed.length > 40, `${printed.length} outputs`);
      const everything = printed.join('\n');
      for (const secret of SECRET_TEXTS) assert.ok(!everything.includes(secret), `"${secret}" leaked into a message`);
    });
  });
});
