import * as assert from 'node:assert/strict';
import { QuotaIndex } from '../../../shared/quota/evaluate';
import type { QuotaModel } from '../../../shared/quota/model';
import { explainSubject } from '../../../shared/quota/report';
import { zeroUsage } from '../../../shared/quota/usage';
import { forgejoProfile } from '../../../shared/quota/forgejoVersion';

const MiB = 2 ** 20;

function model(partial: Partial<QuotaModel>): QuotaModel {
  return { enabled: true, defaultGroups: [], defaultTotal: -1, rules: [], groups: [], assignments: {}, ...partial };
}

describe('verdicts in words (explainSubject)', () => {
  const index = new QuotaIndex(
    model({
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
    }),
  );

  it('says that no rule covers a subject, even at 0 B used', () => {
    const explained = explainSubject(index, 'alice', 'size:all', zeroUsage());
    assert.equal(explained.allowed, false);
    assert.equal(explained.reason.kind, 'uncovered');
    assert.equal(explained.sentence, 'no rule of group free covers size:all, so Forgejo refuses it');
    assert.equal(explained.headroom, 0);
  });

  it('names the failing rule with its figures', () => {
    const usage = { ...zeroUsage(), 'size:repos:private': 140 * MiB };
    const explained = explainSubject(index, 'bob', 'size:repos:private', usage);
    assert.equal(explained.allowed, false);
    assert.equal(explained.sentence, 'rule repos-100m of group free fails (140 MiB of 100 MiB), so Forgejo refuses size:repos:private');
  });

  it('gives the room left under the binding rule of the group with the most room', () => {
    const usage = { ...zeroUsage(), 'size:repos:public': 12 * MiB, 'size:git:lfs': 10 * MiB };
    const alice = explainSubject(index, 'alice', 'size:repos:public', usage);
    assert.equal(alice.allowed, true);
    assert.equal(alice.headroom, 88 * MiB);
    assert.equal(alice.sentence, 'group free allows size:repos:public: rule repos-100m 12 MiB of 100 MiB, 88 MiB left');
    // carol's second group has a 1 GiB rule over everything (22 MiB used): more room than free's 88 MiB.
    const carol = explainSubject(index, 'carol', 'size:repos:public', usage);
    assert.equal(carol.headroom, 1002 * MiB);
    assert.match(carol.sentence, /^group pro allows/);
  });

  it('combines reasons when every group refuses for a different one', () => {
    const usage = { ...zeroUsage(), 'size:git:lfs': 60 * MiB, 'size:repos:public': 2000 * MiB };
    const explained = explainSubject(index, 'carol', 'size:git:lfs', usage);
    assert.equal(explained.allowed, false);
    assert.equal(explained.sentence, 'rule lfs-50m of group free fails (60 MiB of 50 MiB); rule all-1g of group pro fails (2.01 GiB of 1 GiB), so Forgejo refuses size:git:lfs');
  });

  it('says the wiki is not measured, yet Forgejo still asks the rules covering it', () => {
    assert.equal(
      explainSubject(index, 'alice', 'size:assets:wiki', zeroUsage()).sentence,
      'size:assets:wiki is not measured (always 0 bytes), but Forgejo still asks the rules covering it; no rule of group free covers size:assets:wiki, so Forgejo refuses it',
    );
  });
});

describe('verdicts in words follow the Forgejo version', () => {
  const profile = (version: string) => {
    const result = forgejoProfile(version);
    assert.ok(result.ok);
    return result.profile;
  };
  const rules = [
    { name: 'lfs-unlimited', limit: -1, subjects: ['size:git:lfs'] },
    { name: 'repos-1k', limit: 1024, subjects: ['size:repos:all'] },
  ];
  const build = (version: string, groupRules: string[]) => new QuotaIndex(model({ rules, groups: [{ name: 'g', rules: groupRules }], assignments: { u: ['g'] } }), profile(version));

  it('before 13.0 a -1 rule covers every subject, and the explanation says so', () => {
    const gen1 = explainSubject(build('11.0.3', ['lfs-unlimited']), 'u', 'size:assets:artifacts', zeroUsage());
    assert.equal(gen1.allowed, true);
    assert.match(gen1.sentence, /\(Forgejo 11\.0: on Forgejo before 13\.0 a rule with limit -1 covers every subject\)$/);
    const gen2 = explainSubject(build('15.0.0', ['lfs-unlimited']), 'u', 'size:assets:artifacts', zeroUsage());
    assert.equal(gen2.allowed, false);
    assert.doesNotMatch(gen2.sentence, /before 13\.0/);
  });

  it('before 13.0 usage equal to the limit is within it, and a parent is answered from its children', () => {
    const usage = { ...zeroUsage(), 'size:repos:public': 1024 };
    const atLimit = explainSubject(build('12.0.3', ['repos-1k']), 'u', 'size:repos:all', usage);
    assert.equal(atLimit.allowed, true);
    assert.match(atLimit.sentence, /usage equal to the limit is still within it/);
    const fromChildren = explainSubject(build('11.0.3', ['repos-1k']), 'u', 'size:all', zeroUsage());
    assert.equal(fromChildren.allowed, true);
    assert.match(fromChildren.sentence, /a subject no rule names is answered from its children \(size:repos:all\)/);
    assert.equal(explainSubject(build('13.0.0', ['repos-1k']), 'u', 'size:all', zeroUsage()).allowed, false);
  });

  it('names whose quota an upload is checked against where that differs from the newest Forgejo', () => {
    const packages = { name: 'packages', limit: 1024, subjects: ['size:assets:packages:all'] };
    const index = (version: string) =>
      new QuotaIndex(model({ rules: [packages, ...rules], groups: [{ name: 'g', rules: ['packages', 'lfs-unlimited'] }], assignments: { u: ['g'] } }), profile(version));
    assert.match(explainSubject(index('14.0.3'), 'u', 'size:assets:packages:all', zeroUsage()).sentence, /before 14\.0\.4 Forgejo checks a package upload against the uploader's quota/);
    assert.doesNotMatch(explainSubject(index('14.0.4'), 'u', 'size:assets:packages:all', zeroUsage()).sentence, /uploader/);
    assert.match(explainSubject(index('15.0.2'), 'u', 'size:git:lfs', zeroUsage()).sentence, /before 15\.0\.3 Forgejo checks an LFS upload against the pusher's quota/);
    assert.doesNotMatch(explainSubject(index('15.0.3'), 'u', 'size:git:lfs', zeroUsage()).sentence, /pusher/);
  });
});
