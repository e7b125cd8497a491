import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CANONICAL_SUBJECTS } from '../../shared/quota/subjects';
import { runQuotaState } from '../helpers/processes';

const DEMO = 'examples/demo.quota.jsonc';

function assertNoStackTrace(text: string) {
  assert.doesNotMatch(text, /\n\s+at .+\(.+:\d+:\d+\)/, `unexpected stack trace:\n${text}`);
}

describe('quota-state evaluate (built CLI)', () => {
  let scratch: string;
  before(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-cli-'));
  });

  it('prints the JSON verdict of every account in the demo instance', () => {
    const result = runQuotaState(['evaluate', DEMO, '--format', 'json']);
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.deepEqual(
      report.accounts.map((a: { name: string }) => a.name),
      ['root', 'alice', 'bob', 'carol', 'acme'],
    );
    const byName = Object.fromEntries(report.accounts.map((a: { name: string }) => [a.name, a]));
    // Default group (alice, bob), assigned group (carol, acme), both sides of a limit.
    assert.deepEqual(
      byName.alice.groups.map((g: { name: string }) => g.name),
      ['free'],
    );
    assert.equal(byName.alice.stands, true);
    assert.equal(byName.bob.stands, false);
    const bobRepos = byName.bob.groups[0].rules.find((r: { name: string }) => r.name === 'repos-100m');
    assert.deepEqual(bobRepos, { name: 'repos-100m', used: 140 * 2 ** 20, limit: 100 * 2 ** 20, stands: false });
    assert.deepEqual(
      byName.carol.groups.map((g: { name: string }) => g.name),
      ['pro'],
    );
    assert.equal(byName.carol.stands, true);
    // acme pays for alice's upload to its repo: 3 MiB issue attachment + 12 MiB release + 4 MiB package + 2 MiB artifact.
    const orgAssets = byName.acme.groups[0].rules.find((r: { name: string }) => r.name === 'org-assets-20m');
    assert.equal(orgAssets.used, 21 * 2 ** 20);
    assert.equal(orgAssets.stands, false);
    for (const account of report.accounts) assert.deepEqual(Object.keys(account.checks), [...CANONICAL_SUBJECTS]);
    assert.equal(byName.bob.checks['size:repos:private'], false);
    assert.equal(byName.bob.checks['size:assets:attachments:issues'], true);
    assert.equal(byName.alice.checks['size:assets:wiki'], true);
  });

  it('shows the built-in group when an account has no group at all', () => {
    const file = join(scratch, 'builtin.quota.jsonc');
    writeFileSync(file, '{ "defaultTotal": "1 KiB", "usage": { "dave": { "size:repos:public": 2048 } } }');
    const report = JSON.parse(runQuotaState(['evaluate', file, '--format', 'json']).stdout);
    assert.deepEqual(report.accounts[0].groups, [{ name: '(default)', builtin: true, stands: false, rules: [{ name: '(default)', used: 2048, limit: 1024, stands: false }] }]);
  });

  it('--subject checks one subject and exits 1 when an evaluated account is over quota for it', () => {
    const over = runQuotaState(['evaluate', DEMO, '--subject', 'size:repos:all', '--format', 'json']);
    assert.equal(over.status, 1);
    const report = JSON.parse(over.stdout);
    for (const account of report.accounts) assert.deepEqual(Object.keys(account.checks), ['size:repos:all']);
    assert.equal(report.accounts.find((a: { name: string }) => a.name === 'bob').checks['size:repos:all'], false);
    const within = runQuotaState(['evaluate', DEMO, '--account', 'alice', '--subject', 'size:repos:all', '--format', 'json']);
    assert.equal(within.status, 0);
    assert.deepEqual(
      JSON.parse(within.stdout).accounts.map((a: { name: string }) => a.name),
      ['alice'],
    );
  });

  it('prints a readable text report', () => {
    const result = runQuotaState(['evaluate', DEMO, '--account', 'bob']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^Forgejo 15\.0 rules \(no version given: the default 15\.0\.9, the supported LTS line\)\n\nbob: OVER QUOTA, 6 of 14 subjects refused \(group free\)/);
    assert.match(result.stdout, /OVER repos-100m: 140 MiB used of 100 MiB/);
    assert.match(result.stdout, /refused none, size:all, size:repos:all, size:repos:public, size:repos:private, size:git:all/);
  });

  it('never calls an account within quota while some subject is refused, and says so when its groups stand', () => {
    const text = runQuotaState(['evaluate', DEMO]).stdout;
    const json = JSON.parse(runQuotaState(['evaluate', DEMO, '--format', 'json']).stdout) as { accounts: Array<{ name: string; stands: boolean; checks: Record<string, boolean> }> };
    for (const account of json.accounts) {
      const header = new RegExp(`^${account.name}: (.*) \\(groups? `, 'm').exec(text)?.[1];
      const refused = Object.values(account.checks).filter((allowed) => !allowed).length;
      const total = Object.keys(account.checks).length;
      if (refused === 0) assert.equal(header, `within quota for all ${total} subjects`, account.name);
      else if (account.stands) assert.equal(header, `its groups stand, but ${refused} of ${total} subjects refused`, account.name);
      else assert.equal(header, `OVER QUOTA, ${refused} of ${total} subjects refused`, account.name);
    }
    assert.match(text, /^root: its groups stand, but 3 of 14 subjects refused \(group free\)$/m);
    assert.doesNotMatch(text, /^root: within quota/m);
  });

  it('exits 2 with located messages for an invalid quota config', () => {
    const file = join(scratch, 'bad.quota.jsonc');
    writeFileSync(file, '{\n  "rules": [\n    { "name": "r", "limit": "ten", "subjects": ["size:al"] }\n  ],\n  "groups": []\n}\n');
    const result = runQuotaState(['evaluate', file]);
    assert.equal(result.status, 2);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, /bad\.quota\.jsonc:3:29: error invalid-size: /);
    assert.match(result.stderr, /bad\.quota\.jsonc:3:49: error unknown-subject: "size:al" in rule "r" is not a quota subject\. Did you mean "size:all"/);
    assertNoStackTrace(result.stderr);
  });

  it('exits 2 with a located syntax error for malformed JSON', () => {
    const file = join(scratch, 'broken.quota.jsonc');
    writeFileSync(file, '{ "rules": [ { "name": "r", "limit": 5 ');
    const result = runQuotaState(['evaluate', file]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /broken\.quota\.jsonc:1:\d+: error syntax: JSON syntax error/);
    assertNoStackTrace(result.stderr);
  });

  const usageErrors: Array<[string, string[], RegExp]> = [
    ['no arguments', [], /Usage:/],
    ['an unknown command', ['frobnicate'], /unknown command "frobnicate"/],
    ['no file', ['evaluate'], /needs exactly one/],
    ['a missing file', ['evaluate', 'nope.quota.jsonc'], /no such file: nope\.quota\.jsonc/],
    ['a folder', ['evaluate', 'examples'], /is a folder/],
    ['an unknown option', ['evaluate', DEMO, '--acount', 'x'], /unknown option --acount/],
    ['a bad format', ['evaluate', DEMO, '--format', 'xml'], /--format must be text or json/],
    ['an unknown subject', ['evaluate', DEMO, '--subject', 'size:repo'], /"size:repo" is not a quota subject; did you mean/],
    ['an unknown account', ['evaluate', DEMO, '--account', 'zed'], /names no account "zed"; accounts: root, alice, bob, carol, acme/],
    ['a flag without value', ['evaluate', DEMO, '--account'], /--account needs a value/],
  ];
  for (const [title, args, message] of usageErrors) {
    it(`exits 2 on a usage error: ${title}`, () => {
      const result = runQuotaState(args);
      assert.equal(result.status, 2);
      assert.match(result.stderr, message);
      assertNoStackTrace(result.stderr);
    });
  }
});
