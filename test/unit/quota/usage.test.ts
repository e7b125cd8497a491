import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { emptyInstanceContent } from '../../../shared/quota/model';
import { computeUsage, usageBySubject, usageOf, zeroUsage } from '../../../shared/quota/usage';
import { ACCEPTED_SUBJECTS, CANONICAL_SUBJECTS, SUBJECT_ALIASES, subjectAncestors, suggestSubjects, LEAF_SUBJECTS } from '../../../shared/quota/subjects';
import { SIZE_STRING_PATTERN } from '../../../shared/quota/sizes';

describe('usage', () => {
  it('charges an attachment to the repository owner, never the uploader', () => {
    const content = {
      ...emptyInstanceContent(),
      attachments: [{ repo: 'acme/site', name: 'shot.png', size: 2048, issue: 3, uploader: 'alice' }],
    };
    const usage = computeUsage(content);
    assert.equal(usage.get('acme')?.['size:assets:attachments:issues'], 2048);
    assert.equal(usage.has('alice'), false);
  });

  it('splits attachments into issues and releases, and sums repos, LFS, packages and artifacts', () => {
    const content = {
      ...emptyInstanceContent(),
      repos: [
        { owner: 'o', name: 'pub', private: false, gitSize: 100, lfsSize: 10 },
        { owner: 'o', name: 'priv', private: true, gitSize: 200, lfsSize: 20 },
      ],
      attachments: [
        { repo: 'o/pub', name: 'a', size: 1, issue: 1 },
        { repo: 'o/pub', name: 'b', size: 2, comment: 4 },
        { repo: 'o/pub', name: 'c', size: 4, release: 'v1' },
      ],
      packages: [
        { owner: 'someone', repo: 'o/pub', type: 'npm', name: 'p', version: '1', size: 8 },
        { owner: 'o', type: 'generic', name: 'q', version: '1', size: 16 },
      ],
      artifacts: [
        { repo: 'o/priv', name: 'live', size: 32, runId: 1 },
        { repo: 'o/priv', name: 'old', size: 1000, runId: 2, expired: true },
      ],
    };
    const usage = computeUsage(content).get('o')!;
    assert.deepEqual(usage, {
      'size:repos:public': 100,
      'size:repos:private': 200,
      'size:git:lfs': 30,
      'size:assets:attachments:issues': 3,
      'size:assets:attachments:releases': 4,
      'size:assets:artifacts': 32,
      'size:assets:packages:all': 24,
    });
    assert.equal(computeUsage(content).has('someone'), false, 'a package linked to a repo is charged to the repo owner');
    const all = usageBySubject(usage);
    assert.equal(all['size:repos:all'], 300);
    assert.equal(all['size:git:all'], 330);
    assert.equal(all['size:assets:attachments:all'], 7);
    assert.equal(all['size:assets:all'], 7 + 32 + 24);
    assert.equal(all['size:all'], 330 + 63, 'size:all counts repository size once');
    assert.equal(all['size:assets:wiki'], 0);
    assert.equal(all.none, 0);
    assert.equal(usageOf('sizeall', usage), 330);
    assert.equal(usageOf('not-a-subject', usage), 0);
  });

  it('an account that owns nothing has zero usage', () => {
    assert.deepEqual(usageBySubject(zeroUsage())['size:all'], 0);
  });
});

describe('subjects', () => {
  it('lists the 14 canonical subjects and the 3 seed aliases', () => {
    assert.equal(CANONICAL_SUBJECTS.length, 14);
    assert.deepEqual(SUBJECT_ALIASES, { sizeall: 'size:git:all', sizelfs: 'size:git:lfs', 'size:wiki': 'size:assets:wiki' });
  });
  it('walks ancestors upward', () => {
    assert.deepEqual(subjectAncestors('size:repos:public'), ['size:repos:all', 'size:git:all', 'size:all']);
    assert.deepEqual(subjectAncestors('size:git:lfs'), ['size:git:all', 'size:all']);
    assert.deepEqual(subjectAncestors('size:assets:attachments:issues'), ['size:assets:attachments:all', 'size:assets:all', 'size:all']);
    assert.deepEqual(subjectAncestors('size:assets:packages:all'), ['size:assets:all', 'size:all']);
    assert.deepEqual(subjectAncestors('size:all'), []);
  });
  it('suggests the closest subjects for a typo', () => {
    assert.equal(suggestSubjects('size:repo:all')[0], 'size:repos:all');
    assert.equal(suggestSubjects('Size:All')[0], 'size:all');
    assert.equal(suggestSubjects('size:lfs')[0], 'size:git:lfs');
  });
  it('agrees with the JSON Schema: subjects, leaf usage keys and the size pattern', () => {
    const schema = JSON.parse(readFileSync('schemas/quota-config.schema.json', 'utf8'));
    assert.deepEqual(schema.$defs.subject.enum, [...ACCEPTED_SUBJECTS]);
    assert.deepEqual(schema.$defs.usageSubject.enum, [...LEAF_SUBJECTS, 'sizelfs']);
    assert.equal(schema.$defs.size.oneOf[1].pattern, SIZE_STRING_PATTERN);
  });
});

describe('usage sums are exact and wrap like Go int64', () => {
  const repos = (count: number, size: number) => Array.from({ length: count }, (_, i) => ({ owner: 'big', name: `r${i}`, private: false, gitSize: size, lfsSize: 0 }));
  it('past 2^53 the sum is an exact bigint', () => {
    const usage = computeUsage({ ...emptyInstanceContent(), repos: repos(3, 2 ** 52 + 1) }).get('big')!;
    assert.equal(usage['size:repos:public'], 3n * (2n ** 52n + 1n));
  });
  it("past 2^63 it wraps to a negative number, as Forgejo's int64 sums do", () => {
    const usage = computeUsage({ ...emptyInstanceContent(), repos: repos(1025, 2 ** 53) }).get('big')!;
    assert.equal(usage['size:repos:public'], BigInt.asIntN(64, 1025n * 2n ** 53n));
    assert.ok((usage['size:repos:public'] as bigint) < 0n);
  });
});
