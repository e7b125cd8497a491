/** One account, explained (shared/quota/explain.ts): what decides each subject, the room left and the reason in words. */
import * as assert from 'node:assert/strict';
import type { QuotaInfo } from '../../../shared/api/types';
import { explainAccount, type AccountExplanation, type SubjectExplanation } from '../../../shared/quota/explain';
import { forgejoProfile, type ForgejoProfile } from '../../../shared/quota/forgejoVersion';
import type { LeafUsage, QuotaModel } from '../../../shared/quota/model';
import { quotaUsedFromLeafUsage } from '../../../shared/quota/quotaInfo';
import { zeroUsage } from '../../../shared/quota/usage';

const MiB = 2 ** 20;

function model(partial: Partial<QuotaModel>): QuotaModel {
  return { enabled: true, defaultGroups: [], defaultTotal: -1, rules: [], groups: [], assignments: {}, ...partial };
}

function profile(version: string): ForgejoProfile {
  const result = forgejoProfile(version);
  assert.ok(result.ok);
  return result.profile;
}

/** The explanation of one subject. */
function explain(quota: QuotaModel, account: string, subject: string, usage: Partial<LeafUsage> = {}, version?: string): SubjectExplanation {
  const explained = explainAccount(account, { model: quota, usage: { ...zeroUsage(), ...usage } }, { subjects: [subject], profile: version ? profile(version) : undefined });
  return explained.subjects[0];
}

describe('one account, explained', () => {
  const demo = model({
    rules: [
      { name: 'repos-100m', limit: 100 * MiB, subjects: ['size:repos:all'] },
      { name: 'lfs-50m', limit: 50 * MiB, subjects: ['size:git:lfs'] },
      { name: 'all-1g', limit: 1024 * MiB, subjects: ['size:all'] },
    ],
    groups: [
      { name: 'free', rules: ['repos-100m', 'lfs-50m'] },
      { name: 'pro', rules: ['all-1g'] },
    ],
    defaultGroups: ['free'],
    assignments: { carol: ['free', 'pro'] },
  });

  describe('the rule and group that decide', () => {
    it('allowed: the covering rule with the least room, in the group with the most room', () => {
      const usage = { 'size:repos:public': 12 * MiB, 'size:git:lfs': 10 * MiB };
      const alice = explain(demo, 'alice', 'size:repos:public', usage);
      assert.equal(alice.verdict, 'allowed');
      assert.deepEqual(alice.decidedBy, {
        group: 'free',
        rule: { name: 'repos-100m', subjects: ['size:repos:all'], used: 12 * MiB, limit: 100 * MiB, stands: true, headroom: 88 * MiB },
      });
      assert.equal(alice.used, 12 * MiB);
      assert.equal(alice.headroom, 88 * MiB);
      assert.equal(alice.percent, 12);
      assert.equal(alice.reason, 'group free allows size:repos:public: rule repos-100m 12 MiB of 100 MiB, 88 MiB left');
      // carol's second group has a 1 GiB rule over everything (22 MiB used): more room than free's 88 MiB.
      const carol = explain(demo, 'carol', 'size:repos:public', usage);
      assert.deepEqual([carol.decidedBy?.group, carol.decidedBy?.rule.name, carol.headroom], ['pro', 'all-1g', 1002 * MiB]);
      assert.match(carol.reason, /^group pro allows/);
    });

    it('refused: the failing rule of the first group, and every group that refuses, in words', () => {
      const usage = { 'size:git:lfs': 60 * MiB, 'size:repos:public': 2000 * MiB };
      const carol = explain(demo, 'carol', 'size:git:lfs', usage);
      assert.equal(carol.verdict, 'fails');
      assert.deepEqual(
        carol.failing.map((f) => [f.group, f.rule.name]),
        [
          ['free', 'lfs-50m'],
          ['pro', 'all-1g'],
        ],
      );
      assert.equal(carol.decidedBy?.rule.name, 'lfs-50m');
      assert.equal(carol.headroom, 0);
      assert.equal(carol.percent, 120);
      assert.equal(carol.reason, 'rule lfs-50m of group free fails (60 MiB of 50 MiB); rule all-1g of group pro fails (2.01 GiB of 1 GiB), so Forgejo refuses size:git:lfs');
    });

    it('uncovered: no rule decides, and the reason says Forgejo refuses what no rule covers, even at 0 B used', () => {
      const all = explain(demo, 'alice', 'size:all');
      assert.equal(all.verdict, 'uncovered');
      assert.equal(all.allowed, false);
      assert.equal(all.decidedBy, undefined);
      assert.deepEqual(all.uncovered, ['free']);
      assert.equal(all.percent, undefined);
      assert.equal(all.reason, 'no rule of group free covers size:all, so Forgejo refuses it');
      assert.equal(
        explain(demo, 'alice', 'size:assets:wiki').reason,
        'size:assets:wiki is not measured (always 0 bytes), but Forgejo still asks the rules covering it; no rule of group free covers size:assets:wiki, so Forgejo refuses it',
      );
    });

    it('the account: its group list and where it comes from, each rule once, and the first failing rule when over quota', () => {
      const bob = explainAccount('bob', { model: demo, usage: { ...zeroUsage(), 'size:repos:private': 140 * MiB } });
      assert.equal(bob.groupList, 'default');
      assert.equal(bob.within, false);
      assert.deepEqual([bob.failing?.group, bob.failing?.rule.name], ['free', 'repos-100m']);
      assert.equal(bob.reason, 'bob is over quota: rule repos-100m of group free fails (140 MiB of 100 MiB)');
      assert.equal(bob.subjects.length, 14, 'every canonical subject by default');
      assert.deepEqual(bob.forgejo, { version: '15.0.9', rules: 'Forgejo 15.0 rules', generation: 2 });
      const carol = explainAccount('carol', { model: demo }, { subjects: [] });
      assert.equal(carol.groupList, 'assigned');
      assert.equal(carol.reason, 'carol is within quota: group free stands');
      const nobody = explainAccount('nobody', { model: model({ defaultTotal: 1024 }) }, { subjects: ['size:all'] });
      assert.equal(nobody.groupList, 'builtin');
      assert.deepEqual(nobody.groups[0], {
        name: '(default)',
        builtin: true,
        stands: true,
        rules: [{ name: '(default)', subjects: ['size:all'], used: 0, limit: 1024, stands: true, headroom: 1024 }],
      });
      assert.equal(nobody.subjects[0].reason, 'the built-in default group allows size:all: rule (default) 0 B of 1 KiB, 1 KiB left');
    });
  });

  describe('headroom', () => {
    const one = model({ rules: [{ name: 'r', limit: 1000, subjects: ['size:repos:all'] }], groups: [{ name: 'g', rules: ['r'] }], defaultGroups: ['g'] });
    it('below the limit: what is left; at the limit and over it: 0 and refused (from Forgejo 13.0)', () => {
      assert.deepEqual(pick(explain(one, 'u', 'size:repos:all', { 'size:repos:public': 999 })), { allowed: true, headroom: 1, percent: 99.9 });
      assert.deepEqual(pick(explain(one, 'u', 'size:repos:all', { 'size:repos:public': 1000 })), { allowed: false, headroom: 0, percent: 100 });
      assert.deepEqual(pick(explain(one, 'u', 'size:repos:all', { 'size:repos:public': 1500 })), { allowed: false, headroom: 0, percent: 150 });
    });
    it('a limit of 0 never stands: refused, 100% in use', () => {
      const zero = model({ rules: [{ name: 'z', limit: 0, subjects: ['size:all'] }], groups: [{ name: 'g', rules: ['z'] }], defaultGroups: ['g'] });
      assert.deepEqual(pick(explain(zero, 'u', 'size:all')), { allowed: false, headroom: 0, percent: 100 });
    });
    it('unlimited (-1): allowed with no limit, headroom null and no share, however much is used', () => {
      const unlimited = model({ rules: [{ name: 'any', limit: -1, subjects: ['size:all'] }], groups: [{ name: 'g', rules: ['any'] }], defaultGroups: ['g'] });
      const explained = explain(unlimited, 'u', 'size:git:lfs', { 'size:git:lfs': 10 ** 15 });
      assert.deepEqual(pick(explained), { allowed: true, headroom: null, percent: undefined });
      assert.equal(explained.decidedBy?.rule.headroom, null);
      assert.equal(explained.reason, 'group g allows size:git:lfs: rule any 909.49 TiB of unlimited, no limit');
    });
    it('a bounded rule binds before an unlimited one in the same group', () => {
      const both = model({
        rules: [
          { name: 'any', limit: -1, subjects: ['size:all'] },
          { name: 'lfs', limit: 100, subjects: ['size:git:lfs'] },
        ],
        groups: [{ name: 'g', rules: ['any', 'lfs'] }],
        defaultGroups: ['g'],
      });
      const explained = explain(both, 'u', 'size:git:lfs', { 'size:git:lfs': 40 });
      assert.deepEqual([explained.decidedBy?.rule.name, explained.headroom], ['lfs', 60]);
    });

    function pick(explained: SubjectExplanation) {
      return { allowed: explained.allowed, headroom: explained.headroom, percent: explained.percent };
    }
  });

  describe('the Forgejo version: 13.0 changed the rules', () => {
    const rules = [
      { name: 'lfs-unlimited', limit: -1, subjects: ['size:git:lfs'] },
      { name: 'repos-1k', limit: 1024, subjects: ['size:repos:all'] },
    ];
    const build = (groupRules: string[]) => model({ rules, groups: [{ name: 'g', rules: groupRules }], assignments: { u: ['g'] } });

    it('at the limit: within before 13.0, refused from 13.0, and each reason says which side of 13.0 it is on', () => {
      const usage = { 'size:repos:public': 1024 };
      const before = explain(build(['repos-1k']), 'u', 'size:repos:all', usage, '12.0.3');
      assert.deepEqual([before.allowed, before.headroom], [true, 0]);
      assert.deepEqual(before.versionNotes, ['on Forgejo before 13.0 usage equal to the limit is still within it']);
      assert.equal(before.reason, 'group g allows size:repos:all: rule repos-1k 1 KiB of 1 KiB, 0 B left (Forgejo 12.0: on Forgejo before 13.0 usage equal to the limit is still within it)');
      const after = explain(build(['repos-1k']), 'u', 'size:repos:all', usage, '13.0.0');
      assert.deepEqual([after.allowed, after.headroom], [false, 0]);
      assert.equal(after.reason, 'rule repos-1k of group g fails (1 KiB of 1 KiB), so Forgejo refuses size:repos:all (Forgejo 13.0: from 13.0 usage equal to the limit is over it)');
      assert.deepEqual(explain(build(['repos-1k']), 'u', 'size:repos:all', { 'size:repos:public': 1000 }, '13.0.0').versionNotes, [], 'nothing to say below the limit');
    });

    it('a -1 rule covers every subject before 13.0, only its own from 13.0', () => {
      const before = explain(build(['lfs-unlimited']), 'u', 'size:assets:artifacts', {}, '11.0.3');
      assert.equal(before.allowed, true);
      assert.equal(before.decidedBy?.rule.name, 'lfs-unlimited');
      assert.match(before.reason, /\(Forgejo 11\.0: on Forgejo before 13\.0 a rule with limit -1 covers every subject\)$/);
      const after = explain(build(['lfs-unlimited']), 'u', 'size:assets:artifacts', {}, '15.0.0');
      assert.equal(after.verdict, 'uncovered');
      assert.equal(after.reason, 'no rule of group g covers size:assets:artifacts, so Forgejo refuses it (Forgejo 15.0: from 13.0 a rule with limit -1 covers only its own subjects)');
    });

    it('before 13.0 a parent no rule names is answered from its children; from 13.0 it is not covered', () => {
      const before = explain(build(['repos-1k']), 'u', 'size:all', {}, '11.0.3');
      assert.equal(before.allowed, true);
      assert.match(before.reason, /a subject no rule names is answered from its children \(size:repos:all\)/);
      assert.equal(explain(build(['repos-1k']), 'u', 'size:all', {}, '13.0.0').allowed, false);
    });

    it('names whose quota an upload is checked against where that differs from the newest Forgejo', () => {
      const packages = model({
        rules: [{ name: 'packages', limit: 1024, subjects: ['size:assets:packages:all'] }, ...rules],
        groups: [{ name: 'g', rules: ['packages', 'lfs-unlimited'] }],
        assignments: { u: ['g'] },
      });
      assert.match(explain(packages, 'u', 'size:assets:packages:all', {}, '14.0.3').reason, /before 14\.0\.4 Forgejo checks a package upload against the uploader's quota/);
      assert.doesNotMatch(explain(packages, 'u', 'size:assets:packages:all', {}, '14.0.4').reason, /uploader/);
      assert.match(explain(packages, 'u', 'size:git:lfs', {}, '15.0.2').reason, /before 15\.0\.3 Forgejo checks an LFS upload against the pusher's quota/);
      assert.doesNotMatch(explain(packages, 'u', 'size:git:lfs', {}, '15.0.3').reason, /pusher/);
    });

    it('before 12.0.4 size:all counts repositories twice', () => {
      const total = model({ rules: [{ name: 'all', limit: 10_000, subjects: ['size:all'] }], groups: [{ name: 'g', rules: ['all'] }], defaultGroups: ['g'] });
      assert.equal(explain(total, 'u', 'size:all', { 'size:repos:public': 3000 }, '12.0.3').used, 6000);
      assert.equal(explain(total, 'u', 'size:all', { 'size:repos:public': 3000 }, '12.0.4').used, 3000);
    });
  });

  describe('64-bit figures stay exact beyond 2^53', () => {
    const INT64_MAX = 2n ** 63n - 1n;
    it('an int64 limit and a usage beyond 2^53: used, headroom and the rule figures are exact bigints', () => {
      const huge = model({ rules: [{ name: 'max', limit: INT64_MAX, subjects: ['size:all'] }], groups: [{ name: 'g', rules: ['max'] }], defaultGroups: ['g'] });
      const used = 2n ** 60n + 1n;
      const explained = explainAccount('u', { model: huge, usage: { ...zeroUsage(), 'size:repos:public': used } }, { subjects: ['size:all'] });
      const subject = explained.subjects[0];
      assert.equal(subject.used, used);
      assert.equal(subject.headroom, INT64_MAX - used);
      assert.equal(subject.decidedBy?.rule.limit, INT64_MAX);
      assert.equal(explained.groups[0].rules[0].used, used);
      assert.equal(subject.reason, 'group g allows size:all: rule max 1 EiB of 8 EiB, 7 EiB left');
    });
    it('a small usage under an int64 limit: the headroom is the exact difference, not a rounded number', () => {
      const huge = model({ rules: [{ name: 'max', limit: INT64_MAX, subjects: ['size:all'] }], groups: [{ name: 'g', rules: ['max'] }], defaultGroups: ['g'] });
      assert.equal(explain(huge, 'u', 'size:all', { 'size:repos:public': 1 }).headroom, INT64_MAX - 1n);
    });
  });

  describe('an account as the quota API answers for it', () => {
    const usage = { ...zeroUsage(), 'size:repos:private': 140 * MiB, 'size:git:lfs': 2 * MiB };
    /** bob's group in a file, named as the API's user view numbers what it hides. */
    const file = model({
      rules: [
        { name: '#1.1', limit: 100 * MiB, subjects: ['size:repos:all'] },
        { name: '#1.2', limit: 50 * MiB, subjects: ['size:git:lfs'] },
      ],
      groups: [{ name: '#1', rules: ['#1.1', '#1.2'] }],
      assignments: { bob: ['#1'] },
    });
    /** The same account as `GET /user/quota` answers: no names. */
    const bob: QuotaInfo = { used: quotaUsedFromLeafUsage(usage), groups: [{ rules: file.rules.map(({ limit, subjects }) => ({ limit, subjects })) }] };

    it('numbers hidden group and rule names as #1 and #1.2, and explains like the same model from a file', () => {
      const fromApi = explainAccount('bob', { quota: bob });
      assert.deepEqual(
        fromApi.groups.map((g) => [g.name, g.rules.map((r) => r.name)]),
        [['#1', ['#1.1', '#1.2']]],
      );
      const lfs = fromApi.subjects.find((s) => s.subject === 'size:git:lfs')!;
      assert.deepEqual([lfs.decidedBy?.group, lfs.decidedBy?.rule.name, lfs.headroom], ['#1', '#1.2', 48 * MiB]);
      const fromFile: AccountExplanation = explainAccount('bob', { model: file, usage });
      assert.deepEqual(fromApi, fromFile);
    });
    it('no group listed: the server default decides and the API does not show it; taken as within quota', () => {
      const dave = explainAccount('dave', { quota: { used: bob.used, groups: [] } });
      assert.equal(dave.groupList, 'unlisted');
      assert.equal(dave.within, true);
      assert.equal(dave.reason, 'the server lists no quota group for dave, so its default total limit decides (the API does not show it)');
      const repos = dave.subjects.find((s) => s.subject === 'size:repos:private')!;
      assert.deepEqual([repos.verdict, repos.allowed, repos.used, repos.headroom, repos.reason], ['unlisted', true, 140 * MiB, null, dave.reason]);
    });
  });
});
