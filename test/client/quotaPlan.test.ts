import * as assert from 'node:assert/strict';
import { describeStep, planPush, pullIntoText } from '../../client/quotaPlan';
import { formatEvaluationReport } from '../../client/previewTable';
import { analyzeQuotaConfig } from '../../shared/quota/config';
import { parse } from 'jsonc-parser';

const FILE = `{
  // keep me
  "rules": [
    { "name": "repos", "limit": "1 GiB", "subjects": ["size:repos:all"] },
    { "name": "lfs", "limit": 100, "subjects": ["size:git:lfs"] }
  ],
  "groups": [{ "name": "free", "rules": ["repos", "lfs"] }],
  "assignments": { "carol": ["free"] }
}`;

describe('push plan (quota file → server)', () => {
  const model = analyzeQuotaConfig(FILE).model;

  it('creates what is missing, updates what differs, deletes what the file does not have, in a safe order', () => {
    const steps = planPush(model, {
      rules: [
        { name: 'repos', limit: 5, subjects: ['size:repos:all'] },
        { name: 'old', limit: 1, subjects: ['size:all'] },
      ],
      groups: [
        {
          name: 'free',
          rules: [
            { name: 'repos', limit: 5 },
            { name: 'old', limit: 1 },
          ],
        },
        { name: 'gone', rules: [] },
      ],
      accountGroups: { carol: [] },
    });
    assert.deepEqual(steps.map(describeStep), [
      'create rule "lfs": 100 B on size:git:lfs',
      'update rule "repos": limit 5 B → 1 GiB',
      'add rule "lfs" to group "free"',
      'set the groups of "carol": none → free',
      'delete group "gone" (not in the file)',
      'delete rule "old" (not in the file)',
    ]);
  });

  it('has nothing to do when the server matches (subject order does not matter)', () => {
    const steps = planPush(model, {
      rules: [
        { name: 'repos', limit: 1073741824, subjects: ['size:repos:all'] },
        { name: 'lfs', limit: 100, subjects: ['size:git:lfs'] },
      ],
      groups: [
        {
          name: 'free',
          rules: [
            { name: 'lfs', limit: 100 },
            { name: 'repos', limit: 1073741824 },
          ],
        },
      ],
      accountGroups: { carol: ['free'] },
    });
    assert.deepEqual(steps, []);
  });
});

describe('pull (server → quota file)', () => {
  it('replaces rules and groups, keeps comments and other properties, writes exact sizes', () => {
    const text = pullIntoText(FILE, [{ name: 'big', limit: 3221225472, subjects: ['size:all'] }], [{ name: 'pro', rules: [{ name: 'big', limit: 3221225472 }] }]);
    assert.match(text, /\/\/ keep me/);
    const value = parse(text);
    assert.deepEqual(value.rules, [{ name: 'big', limit: '3 GiB', subjects: ['size:all'] }]);
    assert.deepEqual(value.groups, [{ name: 'pro', rules: ['big'] }]);
    assert.deepEqual(value.assignments, { carol: ['free'] });
  });

  it('starts a file from nothing', () => {
    assert.deepEqual(parse(pullIntoText('', [], [])), { rules: [], groups: [] });
  });
});

describe('preview table', () => {
  it('shows each account, group, rule figures and subject verdicts in words', () => {
    const text = formatEvaluationReport(
      {
        forgejo: { version: '11.0.3', rules: 'Forgejo 11.0 rules', generation: 1, source: 'file' },
        accounts: [
          {
            name: 'dora',
            stands: false,
            groups: [{ name: 'free', stands: false, rules: [{ name: 'repos', used: 2048, limit: 1024, stands: false }] }],
            checks: { 'size:repos:all': false, 'size:assets:wiki': true },
          },
        ],
      },
      'team.quota.jsonc',
    );
    assert.match(text, /## dora: over quota/);
    assert.match(text, /Forgejo 11\.0 rules: the verdicts are what Forgejo 11\.0\.3 decides/);
    assert.match(text, /\| free \| repos \| 2 KiB \| 1 KiB \| \*\*fails\*\* \| fails \|/);
    assert.match(text, /\| `size:assets:wiki` \| within quota \|/);
  });
});
