import * as assert from 'node:assert/strict';
import { QuotaIndex } from '../../../shared/quota/evaluate';
import type { QuotaModel } from '../../../shared/quota/model';
import { explainSubject } from '../../../shared/quota/report';
import { zeroUsage } from '../../../shared/quota/usage';

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
    assert.equal(
      explained.sentence,
      'rule lfs-50m of group free fails (60 MiB of 50 MiB); rule all-1g of group pro fails (2.01 GiB of 1 GiB), so Forgejo refuses size:git:lfs',
    );
  });

  it('says the wiki is not measured, yet Forgejo still asks the rules covering it', () => {
    assert.equal(
      explainSubject(index, 'alice', 'size:assets:wiki', zeroUsage()).sentence,
      'size:assets:wiki is not measured (always 0 bytes), but Forgejo still asks the rules covering it; no rule of group free covers size:assets:wiki, so Forgejo refuses it',
    );
  });
});
