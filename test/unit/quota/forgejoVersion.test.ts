/** Forgejo version strings as servers report them, and the profile each one gets (reference/forgejo-versions.md §1.2). */
import { strict as assert } from 'node:assert';
import {
  DEFAULT_FORGEJO_PROFILE,
  describeResolvedProfile,
  forgejoProfile,
  parseForgejoVersion,
  reportedVersion,
  resolveForgejoProfile,
  rulesLabel,
  type ForgejoProfile,
} from '../../../shared/quota/forgejoVersion';

function profileOf(version: string): ForgejoProfile {
  const result = forgejoProfile(version);
  assert.ok(result.ok, `${version}: ${'message' in result ? result.message : ''}`);
  return result.profile;
}

type Row = [version: string, generation: 1 | 2, reposTwice: boolean, total: 'integer' | 'size', packages: 'uploader' | 'owner', lfs: 'pusher' | 'repository owner', branch: string];

describe('Forgejo versions and their quota profiles', () => {
  const rows: Row[] = [
    ['9.0.0+gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['11.0.3+gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['11.0.15', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['11.0.3+LTS-gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['12.0.3+gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['12.0.4+gitea-1.22.0', 1, false, 'size', 'uploader', 'pusher', 'size:git:all'],
    // git describe on the v12.0 branch: after 12.0.4, so it has 12.0.4's fixes (semver would call it older).
    ['12.0.4-3-abcdef+gitea-1.22.0', 1, false, 'size', 'uploader', 'pusher', 'size:git:all'],
    ['12.0.3-7-0123abc+gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    // Main-branch builds: pre-releases of 13.0.0, decided by their commit count.
    ['13.0.0-dev-442-aaaaaaaaaa+gitea-1.22.0', 1, true, 'integer', 'uploader', 'pusher', 'size:git:all'],
    ['13.0.0-dev-443-9354efceb1+gitea-1.22.0', 2, true, 'integer', 'uploader', 'pusher', 'size:repos:all'],
    ['13.0.0-dev-465-4e1d4caf98+gitea-1.22.0', 2, false, 'integer', 'uploader', 'pusher', 'size:repos:all'],
    ['13.0.0-dev-471-60cab1bafd+gitea-1.22.0', 2, false, 'size', 'uploader', 'pusher', 'size:repos:all'],
    ['13.0.0+gitea-1.22.0', 2, false, 'size', 'uploader', 'pusher', 'size:repos:all'],
    ['14.0.3', 2, false, 'size', 'uploader', 'pusher', 'size:repos:all'],
    ['14.0.4+gitea-1.22.0', 2, false, 'size', 'owner', 'pusher', 'size:repos:all'],
    ['15.0.0-dev-476-aaaaaaaaaa+gitea-1.22.0', 2, false, 'size', 'uploader', 'pusher', 'size:repos:all'],
    ['15.0.0-dev-477-cf51d3c888+gitea-1.22.0', 2, false, 'size', 'owner', 'pusher', 'size:repos:all'],
    ['15.0.2+gitea-1.22.0', 2, false, 'size', 'owner', 'pusher', 'size:repos:all'],
    ['15.0.3+gitea-1.22.0', 2, false, 'size', 'owner', 'repository owner', 'size:repos:all'],
    ['16.0.0-dev-369-aaaaaaaaaa', 2, false, 'size', 'owner', 'pusher', 'size:repos:all'],
    ['16.0.0-dev-370-dfdd9b2e2a', 2, false, 'size', 'owner', 'repository owner', 'size:repos:all'],
    ['16.0.0+gitea-1.22.0', 2, false, 'size', 'owner', 'repository owner', 'size:repos:all'],
    ['v17.0.0-dev', 2, false, 'size', 'owner', 'repository owner', 'size:repos:all'],
  ];
  for (const [version, generation, reposTwice, total, packages, lfs, branch] of rows) {
    it(version, () => {
      const p = profileOf(version);
      assert.deepEqual(
        [p.generation, p.sizeAllCountsReposTwice, p.totalParsing, p.packageUploadChargedTo, p.lfsUploadChargedTo, p.branchCreationSubject],
        [generation, reposTwice, total, packages, lfs, branch],
      );
    });
  }

  it('says a Gitea server or a Forgejo before 9.0 has no quota API', () => {
    for (const version of ['1.22.0', '1.21.11+gitea', '8.0.3+gitea-1.22.0', '7.0.16', '9.0.0-dev-391-abcdef1234']) {
      const parsed = parseForgejoVersion(version);
      assert.equal(parsed.ok, false, version);
      assert.equal(!parsed.ok && parsed.reason, 'no-quota-api', version);
      assert.match(!parsed.ok ? parsed.message : '', /no quota API/);
    }
    assert.equal(parseForgejoVersion('9.0.0-dev-392-e1fe3bbdc0').ok, true);
  });

  it('refuses what is not a version', () => {
    for (const version of ['', 'latest', '11', '11.0', '11.0.x', '13.0.0-rc1']) {
      const parsed = parseForgejoVersion(version);
      assert.equal(!parsed.ok && parsed.reason, 'invalid', version);
    }
  });

  it('labels the rules in force and reports versions as Forgejo does', () => {
    assert.equal(rulesLabel(profileOf('11.0.3+gitea-1.22.0')), 'Forgejo 11.0 rules');
    assert.equal(rulesLabel(profileOf('13.0.0-dev-443-9354efceb1')), 'Forgejo 13.0 (dev build) rules');
    assert.equal(DEFAULT_FORGEJO_PROFILE.version, '15.0.9');
    assert.equal(reportedVersion(DEFAULT_FORGEJO_PROFILE), '15.0.9+gitea-1.22.0');
    assert.equal(reportedVersion(profileOf('11.0.3')), '11.0.3+gitea-1.22.0');
  });
});

describe('where the version in force comes from', () => {
  it('takes the first usable source, and says which it ignored and why', () => {
    const resolved = resolveForgejoProfile([
      { source: 'file', version: undefined },
      { source: 'setting', version: '' },
      { source: 'server', version: '1.22.3' },
    ]);
    assert.equal(resolved.source, 'default');
    assert.equal(
      describeResolvedProfile(resolved),
      "Forgejo 15.0 rules (no version given: the default 15.0.9, the supported LTS line; the connected server's version ignored: 1.22.3 is a Gitea version: Gitea has no quota API (Forgejo added it in 9.0))",
    );
    const fromFile = resolveForgejoProfile([
      { source: 'file', version: '11.0.3' },
      { source: 'server', version: '15.0.0' },
    ]);
    assert.deepEqual([fromFile.source, fromFile.profile.generation], ['file', 1]);
  });
});
