/**
 * Forgejo's own engine tests (models/quota/*_test.go at v11.0.3 and v15.0.3) run through the
 * engine at the level each Go test calls: Rule.Evaluate, Group.Evaluate, GroupList.Evaluate.
 */
import { strict as assert } from 'node:assert';
import { groupAnswer, groupListAnswer, ruleAnswer } from '../../../shared/quota/evaluate';
import { forgejoProfile, type ForgejoProfile } from '../../../shared/quota/forgejoVersion';
import type { LeafUsage } from '../../../shared/quota/model';
import { usageOfExact, zeroUsage } from '../../../shared/quota/usage';
import { FORGEJO_MODEL_CASES, GEN1_VERSION, GEN2_VERSION } from '../../fixtures/forgejoModelCases';

function profile(version: string): ForgejoProfile {
  const result = forgejoProfile(version);
  assert.ok(result.ok);
  return result.profile;
}

describe("Forgejo's models/quota tests through the engine", () => {
  it('covers both generations', () => {
    assert.ok(FORGEJO_MODEL_CASES.filter((c) => c.version === GEN1_VERSION).length > 50);
    assert.ok(FORGEJO_MODEL_CASES.filter((c) => c.version === GEN2_VERSION).length > 50);
    assert.equal(profile(GEN1_VERSION).generation, 1);
    assert.equal(profile(GEN2_VERSION).generation, 2);
  });

  for (const c of FORGEJO_MODEL_CASES) {
    it(c.name, () => {
      const used: LeafUsage = { ...zeroUsage(), ...c.used };
      const p = profile(c.version);
      if (c.level === 'rule') {
        const answer = ruleAnswer(c.groups[0][0], used, c.subject, p);
        assert.deepEqual({ match: answer.matches, allow: answer.allows }, { match: c.expect.match, allow: c.expect.allow });
      } else if (c.level === 'group') {
        const answer = groupAnswer(c.groups[0], used, c.subject, p);
        assert.equal(answer.matches, c.expect.match, 'match');
        assert.equal(answer.allows, c.expect.allow, 'allow');
        if (c.expect.limit !== undefined) assert.equal(answer.limit, c.expect.limit, 'limit');
      } else {
        const answer = groupListAnswer(c.groups, c.defaultTotal, used, c.subject, p);
        assert.equal(answer.allows, c.expect.allow, 'allow');
        if (c.expect.limit !== undefined) assert.equal(answer.limit, c.expect.limit, 'limit');
      }
    });
  }

  describe('usage totals (models/quota/used.go)', () => {
    const used: LeafUsage = {
      'size:repos:public': 2,
      'size:repos:private': 3,
      'size:git:lfs': 7,
      'size:assets:attachments:issues': 11,
      'size:assets:attachments:releases': 13,
      'size:assets:artifacts': 17,
      'size:assets:packages:all': 19,
    };
    it('v15.0.3 models/quota/used_test.go TestQuotaUsedTotals: size:all = git:all + assets:all', () => {
      const p = profile(GEN2_VERSION);
      assert.deepEqual(
        ['size:repos:all', 'size:git:all', 'size:assets:attachments:all', 'size:assets:all', 'size:all'].map((s) => usageOfExact(s, used, p)),
        [5n, 12n, 24n, 60n, 72n],
      );
    });
    it('v11.0.3 models/quota/used.go UsedSize.All: repos:all + git:all + assets:all counts repositories twice', () => {
      assert.equal(usageOfExact('size:all', used, profile(GEN1_VERSION)), 77n);
      assert.equal(usageOfExact('size:all', used, profile('12.0.3')), 77n);
      assert.equal(usageOfExact('size:all', used, profile('12.0.4')), 72n, 'fixed in 12.0.4 (backport of #9234)');
    });
    it('sums wrap at 64 bits as Go int64 does', () => {
      const huge = { ...zeroUsage(), 'size:repos:public': 2n ** 62n, 'size:repos:private': 2n ** 62n } as unknown as LeafUsage;
      assert.equal(usageOfExact('size:repos:all', huge, profile(GEN2_VERSION)), -(2n ** 63n));
    });
  });
});
