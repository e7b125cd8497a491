/**
 * Pins every rule of the quota engine, table-driven.
 */
import { strict as assert } from 'node:assert';
import { checkSubject, evaluateAccount, evaluateRule, limitStands, QuotaIndex, BUILTIN_GROUP_NAME } from '../../../shared/quota/evaluate';
import type { LeafUsage, QuotaModel, QuotaRule } from '../../../shared/quota/model';
import { CANONICAL_SUBJECTS } from '../../../shared/quota/subjects';
import { zeroUsage } from '../../../shared/quota/usage';

function usage(values: Partial<LeafUsage>): LeafUsage {
  return { ...zeroUsage(), ...values };
}

function model(partial: Partial<QuotaModel>): QuotaModel {
  return { enabled: true, defaultGroups: [], defaultTotal: -1, rules: [], groups: [], assignments: {}, ...partial };
}

/** One account "u" in group "g" made of the given rules. */
function single(rules: QuotaRule[]): QuotaIndex {
  return new QuotaIndex(model({ rules, groups: [{ name: 'g', rules: rules.map((r) => r.name) }], assignments: { u: ['g'] } }));
}

describe('quota engine', () => {
  describe('a rule stands when its limit is -1 or the summed usage is strictly below the limit', () => {
    const cases: Array<{ title: string; limit: number; subjects: string[]; used: Partial<LeafUsage>; stands: boolean; sum: number }> = [
      { title: 'limit -1 is unlimited', limit: -1, subjects: ['size:all'], used: { 'size:repos:public': 10 ** 15 }, stands: true, sum: 10 ** 15 },
      { title: 'limit 0 never stands, even at zero usage', limit: 0, subjects: ['size:all'], used: {}, stands: false, sum: 0 },
      { title: 'usage equal to the limit does not stand', limit: 100, subjects: ['size:repos:all'], used: { 'size:repos:public': 100 }, stands: false, sum: 100 },
      { title: 'usage one below the limit stands', limit: 100, subjects: ['size:repos:all'], used: { 'size:repos:public': 99 }, stands: true, sum: 99 },
      { title: 'other negative limits never stand', limit: -2, subjects: ['size:all'], used: {}, stands: false, sum: 0 },
      { title: 'a very negative limit never stands', limit: -1000, subjects: ['size:all'], used: {}, stands: false, sum: 0 },
      { title: 'a subject listed twice counts twice', limit: 150, subjects: ['size:git:lfs', 'size:git:lfs'], used: { 'size:git:lfs': 80 }, stands: false, sum: 160 },
      {
        title: 'several subjects are summed',
        limit: 1024,
        subjects: ['size:assets:attachments:releases', 'size:git:lfs', 'size:assets:packages:all'],
        used: { 'size:assets:attachments:releases': 512, 'size:assets:packages:all': 256, 'size:git:lfs': 16 },
        stands: true,
        sum: 784,
      },
      {
        title: 'aliases are evaluated by their canonical meaning (sizeall = size:git:all)',
        limit: 100,
        subjects: ['sizeall'],
        used: { 'size:repos:private': 60, 'size:git:lfs': 50 },
        stands: false,
        sum: 110,
      },
      { title: 'sizelfs = size:git:lfs', limit: 100, subjects: ['sizelfs'], used: { 'size:repos:private': 60, 'size:git:lfs': 50 }, stands: true, sum: 50 },
      {
        title: 'size:all counts git and assets once each',
        limit: 1000,
        subjects: ['size:all'],
        used: { 'size:repos:public': 100, 'size:repos:private': 200, 'size:git:lfs': 300, 'size:assets:artifacts': 399 },
        stands: true,
        sum: 999,
      },
      {
        title: 'size:all at the limit does not stand',
        limit: 999,
        subjects: ['size:all'],
        used: { 'size:repos:public': 100, 'size:repos:private': 200, 'size:git:lfs': 300, 'size:assets:artifacts': 399 },
        stands: false,
        sum: 999,
      },
      { title: 'the wiki measures nothing (size:wiki = size:assets:wiki)', limit: 1, subjects: ['size:wiki'], used: { 'size:repos:public': 500 }, stands: true, sum: 0 },
      { title: 'none measures nothing', limit: 1, subjects: ['none'], used: { 'size:repos:public': 500 }, stands: true, sum: 0 },
    ];
    for (const c of cases) {
      it(c.title, () => {
        const verdict = evaluateRule({ name: 'r', limit: c.limit, subjects: c.subjects }, usage(c.used));
        assert.equal(verdict.used, c.sum);
        assert.equal(verdict.stands, c.stands);
      });
    }
    it('limitStands is the single definition of standing', () => {
      assert.equal(limitStands(-1, Number.MAX_SAFE_INTEGER), true);
      assert.equal(limitStands(0, 0), false);
      assert.equal(limitStands(5, 4), true);
      assert.equal(limitStands(5, 5), false);
      assert.equal(limitStands(-7, 0), false);
    });
  });

  describe('groups and group lists', () => {
    it('a group stands when all of its rules stand', () => {
      const index = single([
        { name: 'a', limit: 100, subjects: ['size:repos:all'] },
        { name: 'b', limit: 10, subjects: ['size:git:lfs'] },
      ]);
      assert.equal(evaluateAccount(index, 'u', usage({ 'size:repos:public': 50, 'size:git:lfs': 5 })).groups[0].stands, true);
      assert.equal(evaluateAccount(index, 'u', usage({ 'size:repos:public': 50, 'size:git:lfs': 10 })).groups[0].stands, false);
    });
    it('an empty group stands', () => {
      const index = new QuotaIndex(model({ groups: [{ name: 'empty', rules: [] }], assignments: { u: ['empty'] } }));
      const verdict = evaluateAccount(index, 'u', usage({ 'size:repos:public': 10 }));
      assert.deepEqual(verdict.groups, [{ name: 'empty', stands: true, rules: [] }]);
      assert.equal(verdict.stands, true);
    });
    it('a group list stands when any one of its groups stands', () => {
      const index = new QuotaIndex(
        model({
          rules: [
            { name: 'deny', limit: 0, subjects: ['size:all'] },
            { name: 'unlimited', limit: -1, subjects: ['size:all'] },
          ],
          groups: [
            { name: 'x', rules: ['deny'] },
            { name: 'y', rules: ['unlimited'] },
          ],
          assignments: { u: ['x', 'y'] },
        }),
      );
      const verdict = evaluateAccount(index, 'u', usage({ 'size:repos:public': 2048 }));
      assert.deepEqual(
        verdict.groups.map((g) => [g.name, g.stands]),
        [
          ['x', false],
          ['y', true],
        ],
      );
      assert.equal(verdict.stands, true);
      assert.equal(verdict.checks['size:all'], true);
    });
    it('a group list where no group stands does not stand', () => {
      const index = new QuotaIndex(
        model({
          rules: [
            { name: 'zero', limit: 0, subjects: ['size:all'] },
            { name: 'k', limit: 1024, subjects: ['size:all'] },
          ],
          groups: [
            { name: 'x', rules: ['zero'] },
            { name: 'y', rules: ['k'] },
          ],
          assignments: { u: ['x', 'y'] },
        }),
      );
      const verdict = evaluateAccount(index, 'u', usage({ 'size:repos:public': 2048 }));
      assert.equal(verdict.stands, false);
      assert.equal(verdict.checks['size:all'], false);
    });
  });

  describe("an account's group list", () => {
    const base = {
      rules: [
        { name: 'small', limit: 10, subjects: ['size:all'] },
        { name: 'big', limit: 1000, subjects: ['size:all'] },
      ],
      groups: [
        { name: 'free', rules: ['small'] },
        { name: 'pro', rules: ['big'] },
      ],
    };
    it('is its assigned groups, and then the defaults are never consulted', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['pro'], assignments: { carol: ['free'] } }));
      const verdict = evaluateAccount(index, 'carol', usage({ 'size:repos:public': 100 }));
      assert.deepEqual(
        verdict.groups.map((g) => g.name),
        ['free'],
      );
      assert.equal(verdict.checks['size:all'], false);
    });
    it('falls back to the default groups when nothing is assigned', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['pro'] }));
      const verdict = evaluateAccount(index, 'dave', usage({ 'size:repos:public': 100 }));
      assert.deepEqual(
        verdict.groups.map((g) => g.name),
        ['pro'],
      );
      assert.equal(verdict.checks['size:all'], true);
    });
    it('an empty assignment falls back to the defaults', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['free'], assignments: { dave: [] } }));
      assert.deepEqual(
        evaluateAccount(index, 'dave', zeroUsage()).groups.map((g) => g.name),
        ['free'],
      );
    });
    it('uses only the default groups that exist', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['missing', 'free'] }));
      assert.deepEqual(
        evaluateAccount(index, 'dave', zeroUsage()).groups.map((g) => g.name),
        ['free'],
      );
    });
    it('uses the built-in defaultTotal group when no default group exists', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['missing'], defaultTotal: 50 }));
      const verdict = evaluateAccount(index, 'dave', usage({ 'size:assets:artifacts': 60 }));
      assert.deepEqual(verdict.groups, [{ name: BUILTIN_GROUP_NAME, builtin: true, stands: false, rules: [{ name: BUILTIN_GROUP_NAME, used: 60, limit: 50, stands: false }] }]);
      // The built-in rule lists size:all, an ancestor of every tracked subject.
      assert.equal(verdict.checks['size:repos:public'], false);
      // Forgejo 13+ (`rule.go` subjectToParent) walks the wiki up to size:assets:all and size:all too.
      assert.equal(verdict.checks['size:assets:wiki'], false);
    });
    it('defaultTotal defaults to -1: an account with no group is unlimited', () => {
      const index = new QuotaIndex(model({}));
      const verdict = evaluateAccount(index, 'anyone', usage({ 'size:repos:private': 10 ** 12 }));
      assert.equal(verdict.groups[0].rules[0].limit, -1);
      // `none` has no parent in Forgejo's subjectToParent: only a rule listing `none` covers it.
      for (const subject of CANONICAL_SUBJECTS) assert.equal(verdict.checks[subject], subject !== 'none', subject);
    });
    it('assignments to groups that do not exist are ignored', () => {
      const index = new QuotaIndex(model({ ...base, defaultGroups: ['pro'], assignments: { eve: ['ghost'] } }));
      assert.deepEqual(
        evaluateAccount(index, 'eve', zeroUsage()).groups.map((g) => g.name),
        ['pro'],
      );
    });
  });

  describe('check for a subject: ancestor applicability', () => {
    const withRule = (subjects: string[], limit = 1000) => single([{ name: 'r', limit, subjects }]);
    const cases: Array<{ title: string; rule: string[]; limit?: number; ask: string; used?: Partial<LeafUsage>; allowed: boolean }> = [
      { title: 'a size:all rule answers size:repos:public', rule: ['size:all'], ask: 'size:repos:public', allowed: true },
      { title: 'a size:all rule over its limit denies size:repos:public', rule: ['size:all'], limit: 10, ask: 'size:repos:public', used: { 'size:assets:artifacts': 20 }, allowed: false },
      { title: 'a size:repos:public rule does not answer size:all', rule: ['size:repos:public'], ask: 'size:all', allowed: false },
      { title: 'a size:repos:all rule answers size:repos:private', rule: ['size:repos:all'], ask: 'size:repos:private', allowed: true },
      { title: 'a size:git:all rule answers size:git:lfs', rule: ['size:git:all'], ask: 'size:git:lfs', allowed: true },
      { title: 'a size:git:all rule answers size:repos:public (repos:all → git:all)', rule: ['size:git:all'], ask: 'size:repos:public', allowed: true },
      { title: 'a size:git:lfs rule does not answer size:repos:all', rule: ['size:git:lfs'], ask: 'size:repos:all', allowed: false },
      { title: 'a size:assets:all rule answers attachments on issues', rule: ['size:assets:all'], ask: 'size:assets:attachments:issues', allowed: true },
      { title: 'a size:assets:attachments:all rule answers releases', rule: ['size:assets:attachments:all'], ask: 'size:assets:attachments:releases', allowed: true },
      { title: 'a size:assets:all rule answers packages', rule: ['size:assets:all'], ask: 'size:assets:packages:all', allowed: true },
      { title: 'an attachments rule does not answer artifacts', rule: ['size:assets:attachments:all'], ask: 'size:assets:artifacts', allowed: false },
      { title: 'a group with no applicable rule denies', rule: ['size:git:lfs'], ask: 'size:assets:artifacts', allowed: false },
      { title: 'the wiki is answered by a size:all rule (Forgejo walks it up to size:assets:all)', rule: ['size:all'], limit: 0, ask: 'size:assets:wiki', allowed: false },
      { title: 'the wiki is answered by a size:assets:all rule', rule: ['size:assets:all'], limit: 10, ask: 'size:assets:wiki', allowed: true },
      { title: 'the seed spelling size:wiki is the wiki', rule: ['size:all'], limit: 0, ask: 'size:wiki', allowed: false },
      { title: 'none is covered only by a rule listing none', rule: ['size:all'], limit: -1, ask: 'none', allowed: false },
      { title: 'a rule listing none allows it', rule: ['none'], limit: 1, ask: 'none', allowed: true },
      { title: 'asking by alias: sizelfs is answered by a size:git:all rule', rule: ['size:git:all'], ask: 'sizelfs', allowed: true },
      { title: 'a rule written with an alias answers the canonical subject', rule: ['sizeall'], ask: 'size:git:lfs', allowed: true },
      { title: 'an unknown subject is never allowed', rule: ['size:all'], ask: 'size:everything', allowed: false },
    ];
    for (const c of cases) {
      it(c.title, () => {
        assert.equal(checkSubject(withRule(c.rule, c.limit), 'u', c.ask, usage(c.used ?? {})), c.allowed);
      });
    }
    it('every applicable rule must stand; inapplicable failing rules do not matter', () => {
      const index = single([
        { name: 'repos', limit: 4096, subjects: ['size:repos:all'] },
        { name: 'packages', limit: 0, subjects: ['size:assets:packages:all'] },
      ]);
      const used = usage({ 'size:repos:public': 1024, 'size:assets:packages:all': 1024 });
      assert.equal(checkSubject(index, 'u', 'size:repos:public', used), true);
      assert.equal(checkSubject(index, 'u', 'size:assets:packages:all', used), false);
      assert.equal(checkSubject(index, 'u', 'size:all', used), false);
      const both = single([
        { name: 'total', limit: 100, subjects: ['size:all'] },
        { name: 'repos', limit: 4096, subjects: ['size:repos:all'] },
      ]);
      assert.equal(checkSubject(both, 'u', 'size:repos:public', usage({ 'size:repos:public': 200 })), false, 'the size:all rule applies and fails');
    });
    it('one allowing group in the list is enough', () => {
      const index = new QuotaIndex(
        model({
          rules: [
            { name: 'lfs', limit: 10, subjects: ['size:git:lfs'] },
            { name: 'repos', limit: 10, subjects: ['size:repos:all'] },
          ],
          groups: [
            { name: 'a', rules: ['lfs'] },
            { name: 'b', rules: ['repos'] },
          ],
          assignments: { u: ['a', 'b'] },
        }),
      );
      assert.equal(checkSubject(index, 'u', 'size:repos:public', usage({ 'size:repos:public': 5 })), true);
    });
  });
});
