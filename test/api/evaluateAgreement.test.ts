/**
 * `/check` must agree with `quota-state evaluate` on the same instance file, for every
 * account and every subject (canonical spellings and the seed aliases).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CANONICAL_SUBJECTS, SUBJECT_ALIASES } from '../../shared/quota/subjects';
import { DEMO_SEED, ROOT, request, startServer, tempDir, writeTempFile } from './helpers';

const CLI = path.join(ROOT, 'dist/cli/quota-state.js');

interface EvaluateOutput {
  accounts: Array<{ name: string; checks: Record<string, boolean> }>;
}

/** An instance exercising every resolution path: assigned, default, built-in fallback, aliases, boundaries. */
const EDGE_INSTANCE = {
  enabled: true,
  defaultGroups: ['std'],
  defaultTotal: '1 MiB',
  rules: [
    { name: 'exact', limit: 1000, subjects: ['size:repos:public'] },
    { name: 'lfs-alias', limit: 5000, subjects: ['sizelfs', 'size:assets:packages:all'] },
    { name: 'git-alias', limit: -1, subjects: ['sizeall'] },
    { name: 'zero', limit: 0, subjects: ['size:assets:artifacts'] },
    { name: 'twice', limit: 3000, subjects: ['size:repos:private', 'size:repos:private'] },
    { name: 'wiki', limit: 1, subjects: ['size:wiki'] },
    { name: 'total', limit: 100000, subjects: ['size:all'] },
  ],
  groups: [
    { name: 'std', rules: ['exact', 'lfs-alias', 'zero'] },
    { name: 'alias', rules: ['git-alias', 'twice', 'wiki'] },
    { name: 'big', rules: ['total'] },
    { name: 'empty', rules: [] },
  ],
  assignments: { dora: ['alias', 'big'], erin: ['empty'], team: ['big'] },
  accounts: [
    { name: 'admin', type: 'user', admin: true, token: 'edge-admin' },
    { name: 'dora', type: 'user', token: 'edge-dora' },
    { name: 'erin', type: 'user', token: 'edge-erin' },
    { name: 'fred', type: 'user', token: 'edge-fred' },
    { name: 'team', type: 'org', owners: ['dora'] },
    { name: 'nogroup', type: 'org', owners: ['dora'] },
  ],
  repos: [
    { owner: 'dora', name: 'a', private: false, gitSize: 1000, lfsSize: 4000 },
    { owner: 'dora', name: 'b', private: true, gitSize: 1500, lfsSize: 0 },
    { owner: 'fred', name: 'c', private: false, gitSize: 999, lfsSize: 0 },
    { owner: 'team', name: 'd', private: true, gitSize: '2 MiB', lfsSize: 0 },
    { owner: 'nogroup', name: 'e', private: false, gitSize: 10, lfsSize: 0 },
  ],
  attachments: [{ repo: 'team/d', name: 'x.bin', size: 10, release: 'v1', uploader: 'dora' }],
  packages: [{ owner: 'fred', type: 'npm', name: 'p', version: '1', size: 1001 }],
  artifacts: [
    { repo: 'fred/c', name: 'art', size: 0, runId: 1 },
    { repo: 'dora/a', name: 'old', size: 99999, runId: 2, expired: true },
  ],
};

async function assertAgreement(seedFile: string, adminToken: string, tokens: Record<string, string>): Promise<number> {
  const evaluated = JSON.parse(execFileSync(process.execPath, [CLI, 'evaluate', seedFile, '--format', 'json'], { encoding: 'utf8' })) as EvaluateOutput;
  assert.ok(evaluated.accounts.length > 0, 'the CLI evaluated some accounts');
  const server = await startServer({ seed: seedFile });
  let compared = 0;
  const answers = new Set<unknown>();
  try {
    for (const account of evaluated.accounts) {
      const token = tokens[account.name];
      // Users ask for themselves; orgs are asked through the org route by a site admin.
      const route = token ? '/user/quota/check' : `/orgs/${encodeURIComponent(account.name)}/quota/check`;
      const asToken = token ?? adminToken;
      const subjects: Array<[string, string]> = [...CANONICAL_SUBJECTS.map((s): [string, string] => [s, s]), ...Object.entries(SUBJECT_ALIASES)];
      for (const [asked, canonical] of subjects) {
        const expected = account.checks[canonical];
        assert.equal(typeof expected, 'boolean', `the CLI answered ${canonical} for ${account.name}`);
        const response = await request(server.baseUrl, 'GET', `${route}?subject=${encodeURIComponent(asked)}`, { token: asToken });
        assert.equal(response.status, 200, `${account.name} ${asked}: ${response.text}`);
        assert.equal(response.body, expected, `${account.name} ${asked}: API says ${response.text}, quota-state evaluate says ${expected}`);
        answers.add(response.body);
        compared++;
      }
    }
  } finally {
    await server.stop();
  }
  assert.deepEqual([...answers].sort(), [false, true], 'the instance exercises both verdicts');
  return compared;
}

describe('quota API: /check agrees with `quota-state evaluate`', () => {
  before(function () {
    if (!fs.existsSync(CLI)) throw new Error(`${CLI} is missing: run \`node esbuild.mjs\` first`);
  });

  it('on the demo instance, for every account and subject', async () => {
    const compared = await assertAgreement(DEMO_SEED, 'demo-root-token', {
      root: 'demo-root-token',
      alice: 'demo-alice-token',
      bob: 'demo-bob-token',
      carol: 'demo-carol-token',
    });
    assert.equal(compared, 5 * 17);
  });

  it('on an instance with defaults, fallbacks, aliases, duplicates and boundary limits', async () => {
    const seed = writeTempFile('edge.quota.jsonc', JSON.stringify(EDGE_INSTANCE, null, 2));
    const compared = await assertAgreement(seed, 'edge-admin', { admin: 'edge-admin', dora: 'edge-dora', erin: 'edge-erin', fred: 'edge-fred' });
    assert.equal(compared, 6 * 17);
    fs.rmSync(path.dirname(seed), { recursive: true, force: true });
  });

  it('on the same instance without default groups: unassigned accounts fall back to the built-in TOTAL group', async () => {
    const seed = writeTempFile('builtin.quota.jsonc', JSON.stringify({ ...EDGE_INSTANCE, defaultGroups: [] }, null, 2));
    const compared = await assertAgreement(seed, 'edge-admin', { admin: 'edge-admin', dora: 'edge-dora', erin: 'edge-erin', fred: 'edge-fred' });
    assert.equal(compared, 6 * 17);
    fs.rmSync(path.dirname(seed), { recursive: true, force: true });
  });

  it('still agrees after the rules change through the API (the API evaluates its stored state)', async () => {
    const dir = tempDir();
    const seed = path.join(dir, 'changed.quota.jsonc');
    fs.writeFileSync(seed, fs.readFileSync(DEMO_SEED, 'utf8'));
    const server = await startServer({ seed });
    try {
      const admin = { token: 'demo-root-token' };
      // Raise the free plan's repo limit above bob's 140 MiB, and mirror the change in the file.
      const patch = await request(server.baseUrl, 'PATCH', '/admin/quota/rules/repos-100m', { ...admin, json: { limit: 200 * 1024 * 1024 } });
      assert.equal(patch.status, 200);
      fs.writeFileSync(seed, fs.readFileSync(seed, 'utf8').replace('"limit": "100 MiB"', '"limit": "200 MiB"'));
      const evaluated = JSON.parse(execFileSync(process.execPath, [CLI, 'evaluate', seed, '--format', 'json', '--account', 'bob'], { encoding: 'utf8' })) as EvaluateOutput;
      const expected = evaluated.accounts[0].checks['size:repos:private'];
      assert.equal(expected, true, 'the CLI sees bob within the raised limit');
      const response = await request(server.baseUrl, 'GET', '/user/quota/check?subject=size:repos:private', { token: 'demo-bob-token' });
      assert.equal(response.body, expected);
    } finally {
      await server.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
