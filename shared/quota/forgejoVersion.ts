/**
 * Forgejo versions as servers report them, and the quota behaviour each one has (its profile).
 *
 * A version is read the way Forgejo's Makefile writes it (`git describe`, leading `v` and the `g`
 * before the hash dropped, `+gitea-…` appended), not as a semantic version: semver would put
 * `12.0.4-3-abcdef` (three commits *after* 12.0.4) before 12.0.4, and cannot tell which
 * `13.0.0-dev-N` main-branch builds already carry a change. Where each change landed is in
 * `reference/forgejo-versions.md` §1.2; the commit counts come from `git describe` of each
 * squash commit in Forgejo's history.
 */
import * as l10n from '@vscode/l10n';
import type { Subject } from './subjects';

/** The version assumed when nothing says otherwise: the supported LTS line, whose behaviour the reference documents. */
export const DEFAULT_FORGEJO_VERSION = '15.0.9';

/**
 * The newest release of each line with a quota API, newest first: what completion offers for
 * `forgejoVersion`. 12.0.3 is listed too because 12.0.4 changed size:all and TOTAL within the line.
 */
export const FORGEJO_RELEASE_VERSIONS = ['15.0.9', '14.0.5', '13.0.5', '12.0.4', '12.0.3', '11.0.16', '10.0.3', '9.0.3'] as const;

interface ReleaseVersion {
  major: number;
  minor: number;
  patch: number;
}

type ForgejoBuild =
  /** A tagged release, or a `git describe` build `commitsAfter` commits after one (e.g. on a release branch). */
  | { kind: 'release'; version: ReleaseVersion; commitsAfter: number }
  /** A main-branch build: `commits` commits after the `vMAJOR.0.0-dev` tag, i.e. a pre-release of MAJOR.0.0. */
  | { kind: 'dev'; major: number; commits: number };

export type ParsedForgejoVersion =
  | { ok: true; text: string; build: ForgejoBuild }
  /** A Gitea server or a Forgejo from before the quota engine: there is no quota API to ask. */
  | { ok: false; text: string; reason: 'no-quota-api'; message: string }
  | { ok: false; text: string; reason: 'invalid'; message: string };

// MAJOR.MINOR.PATCH, then `-dev-N-HASH` (main) or `-N-HASH` (describe) or nothing, then `+…` build metadata.
const VERSION_RE = /^v?(\d+)\.(\d+)\.(\d+)(?:-dev-(\d+)-g?[0-9a-f]+|-(\d+)-g?[0-9a-f]+)?(?:\+[0-9A-Za-z.+-]*)?$/;
// A main-branch build exactly on the `-dev` tag (`git describe` prints the tag alone).
const DEV_TAG_RE = /^v?(\d+)\.0\.0-dev(?:\+[0-9A-Za-z.+-]*)?$/;

/** The first main-branch build with the quota engine: `v9.0.0-dev-392` (commit e1fe3bbdc0). */
const QUOTA_ENGINE_DEV_COMMITS = 392;

export function parseForgejoVersion(input: string): ParsedForgejoVersion {
  const text = input.trim();
  const devTag = DEV_TAG_RE.exec(text);
  const match = devTag ? undefined : VERSION_RE.exec(text);
  if (!devTag && !match) {
    return {
      ok: false,
      text,
      reason: 'invalid',
      message: l10n.t('"{0}" is not a Forgejo version: expected MAJOR.MINOR.PATCH as Forgejo reports it, e.g. 11.0.3+gitea-1.22.0, 12.0.4-3-abcdef or 13.0.0-dev-443-9354efceb1', text),
    };
  }
  const build: ForgejoBuild = devTag
    ? { kind: 'dev', major: Number(devTag[1]), commits: 0 }
    : match![4] !== undefined
      ? { kind: 'dev', major: Number(match![1]), commits: Number(match![4]) }
      : {
          kind: 'release',
          version: { major: Number(match![1]), minor: Number(match![2]), patch: Number(match![3]) },
          commitsAfter: match![5] !== undefined ? Number(match![5]) : 0,
        };
  const major = build.kind === 'dev' ? build.major : build.version.major;
  if (major === 1) {
    return { ok: false, text, reason: 'no-quota-api', message: l10n.t('{0} is a Gitea version: Gitea has no quota API (Forgejo added it in 9.0)', text) };
  }
  const beforeQuota = build.kind === 'dev' ? major < 9 || (major === 9 && build.commits < QUOTA_ENGINE_DEV_COMMITS) : major < 9;
  if (beforeQuota) {
    return { ok: false, text, reason: 'no-quota-api', message: l10n.t('Forgejo {0} has no quota API: quota arrived in Forgejo 9.0', text) };
  }
  return { ok: true, text, build };
}

/**
 * Where a change first shipped: in a patch release of one line (`backport`), in every release from
 * `fromMajor` on, and in main-branch builds of `fromMajor` from `devCommits` on.
 */
interface ChangeLanding {
  backport?: ReleaseVersion;
  fromMajor: number;
  devCommits: number;
}

function hasChange(build: ForgejoBuild, landing: ChangeLanding): boolean {
  if (build.kind === 'dev') {
    return build.major > landing.fromMajor || (build.major === landing.fromMajor && build.commits >= landing.devCommits);
  }
  const { major, minor, patch } = build.version;
  if (major >= landing.fromMajor) return true;
  const backport = landing.backport;
  return backport !== undefined && major === backport.major && minor === backport.minor && patch >= backport.patch;
}

/** PR #9033 (9354efceb1): strict `<`, `-1` only for its own subjects, upward walk; branch creation asks size:repos:all. */
const GEN2_EVALUATION: ChangeLanding = { fromMajor: 13, devCommits: 443 };
/** PR #9234 (4e1d4caf98, backport ad62bf220d): size:all = git:all + assets:all. */
const SIZE_ALL_FIX: ChangeLanding = { backport: { major: 12, minor: 0, patch: 4 }, fromMajor: 13, devCommits: 465 };
/** PR #9252 (60cab1bafd, backport 1a913b7d00): `[quota.default] TOTAL` read as a humanized size. */
const TOTAL_AS_SIZE: ChangeLanding = { backport: { major: 12, minor: 0, patch: 4 }, fromMajor: 13, devCommits: 471 };
/** PR #11442 (cf51d3c888, backport 3c6b708c0f): package uploads checked against the package owner. */
const PACKAGE_OWNER_PAYS: ChangeLanding = { backport: { major: 14, minor: 0, patch: 4 }, fromMajor: 15, devCommits: 477 };
/** PR #12755 (dfdd9b2e2a, backport 624dff3e92): LFS uploads checked against the repository owner. */
const LFS_REPO_OWNER_PAYS: ChangeLanding = { backport: { major: 15, minor: 0, patch: 3 }, fromMajor: 16, devCommits: 370 };

/** Forgejo's evaluation logic: 1 up to v12.x, 2 from v13.0.0 on. */
export type EvaluationGeneration = 1 | 2;

/** Everything about quota that depends on the Forgejo version. */
export interface ForgejoProfile {
  /** The version as given (or the default). */
  version: string;
  /** What the user sees: "Forgejo 11.0", "Forgejo 13.0 (dev build)". */
  label: string;
  generation: EvaluationGeneration;
  /** Before 12.0.4 `size:all` adds `size:repos:all` to `size:git:all`, which already contains it. */
  sizeAllCountsReposTwice: boolean;
  /** How `[quota.default] TOTAL` is read: a plain int64 (go-ini), or a humanized byte size. */
  totalParsing: 'integer' | 'size';
  /** Whose quota a package upload is checked against. */
  packageUploadChargedTo: 'uploader' | 'owner';
  /** Whose quota an LFS upload is checked against. */
  lfsUploadChargedTo: 'pusher' | 'repository owner';
  /** The subject `POST /repos/{owner}/{repo}/branches` asks. */
  branchCreationSubject: Subject;
}

function labelOf(build: ForgejoBuild): string {
  return build.kind === 'dev' ? l10n.t('Forgejo {0} (dev build)', `${build.major}.0`) : `Forgejo ${build.version.major}.${build.version.minor}`;
}

function profileOfBuild(text: string, build: ForgejoBuild): ForgejoProfile {
  const generation: EvaluationGeneration = hasChange(build, GEN2_EVALUATION) ? 2 : 1;
  return {
    version: text,
    label: labelOf(build),
    generation,
    sizeAllCountsReposTwice: !hasChange(build, SIZE_ALL_FIX),
    totalParsing: hasChange(build, TOTAL_AS_SIZE) ? 'size' : 'integer',
    packageUploadChargedTo: hasChange(build, PACKAGE_OWNER_PAYS) ? 'owner' : 'uploader',
    lfsUploadChargedTo: hasChange(build, LFS_REPO_OWNER_PAYS) ? 'repository owner' : 'pusher',
    branchCreationSubject: generation === 2 ? 'size:repos:all' : 'size:git:all',
  };
}

/** The profile of a version string, or why there is none. */
export function forgejoProfile(version: string): { ok: true; profile: ForgejoProfile } | Extract<ParsedForgejoVersion, { ok: false }> {
  const parsed = parseForgejoVersion(version);
  return parsed.ok ? { ok: true, profile: profileOfBuild(parsed.text, parsed.build) } : parsed;
}

export const DEFAULT_FORGEJO_PROFILE: ForgejoProfile = (forgejoProfile(DEFAULT_FORGEJO_VERSION) as { profile: ForgejoProfile }).profile;

/** "Forgejo 11.0 rules": the language status and report headers. */
export function rulesLabel(profile: ForgejoProfile): string {
  return l10n.t({ message: '{0} rules', args: [profile.label], comment: ['{0} names a Forgejo version ("Forgejo 11.0"): the quota rules that version follows'] });
}

/** What a profile does differently from the newest behaviour, one sentence each (hover, explanations). */
export function profileDifferences(profile: ForgejoProfile): string[] {
  const lines: string[] = [];
  if (profile.generation === 1) {
    lines.push(
      l10n.t('a rule stands while usage is at most its limit (`used <= limit`; from 13.0 usage must stay below it)'),
      l10n.t('a rule with limit -1 covers every subject (from 13.0 only its own subjects and their children)'),
      l10n.t('a question about a subject is answered by rules on its children when no rule names it, never by rules on its parents (from 13.0 rules on its ancestors answer it)'),
    );
  }
  if (profile.sizeAllCountsReposTwice) lines.push(l10n.t('`size:all` counts repositories twice (fixed in 12.0.4)'));
  if (profile.totalParsing === 'integer') lines.push(l10n.t('`[quota.default] TOTAL` must be a plain number of bytes; a size such as `2G` is silently ignored (sizes accepted from 12.0.4)'));
  if (profile.packageUploadChargedTo === 'uploader') lines.push(l10n.t("package uploads are checked against the uploader's quota, not the package owner's (changed in 14.0.4)"));
  if (profile.lfsUploadChargedTo === 'pusher') lines.push(l10n.t("LFS uploads are checked against the pusher's quota, not the repository owner's (changed in 15.0.3)"));
  if (profile.branchCreationSubject !== 'size:repos:all') lines.push(l10n.t('API branch creation asks `{0}` (from 13.0 `size:repos:all`)', profile.branchCreationSubject));
  return lines;
}

/** The version a server reports: `GET /api/v1/version` → `{"version": "11.0.3+gitea-1.22.0"}`. */
export function reportedVersion(profile: ForgejoProfile, giteaCompatibility = 'gitea-1.22.0'): string {
  return profile.version.includes('+') ? profile.version : `${profile.version}+${giteaCompatibility}`;
}

/** Where the version in force came from, in the order they are consulted. */
export type ForgejoVersionSource = 'file' | 'option' | 'setting' | 'server' | 'default';

export interface ResolvedForgejoProfile {
  profile: ForgejoProfile;
  source: ForgejoVersionSource;
  /** Versions that were given but could not be used (not a version, or no quota API), with why. */
  ignored: Array<{ source: ForgejoVersionSource; version: string; message: string }>;
}

/**
 * The profile in force: the first usable of the given sources, in the order given, else the
 * default. Editors pass the file, the setting, then the connected server; the CLI its
 * `--forgejo-version` option, then the file.
 */
export function resolveForgejoProfile(sources: ReadonlyArray<{ source: ForgejoVersionSource; version: string | undefined }>): ResolvedForgejoProfile {
  const ignored: ResolvedForgejoProfile['ignored'] = [];
  for (const { source, version } of sources) {
    if (version === undefined || version.trim() === '') continue;
    const result = forgejoProfile(version);
    if (result.ok) return { profile: result.profile, source, ignored };
    ignored.push({ source, version, message: result.message });
  }
  return { profile: DEFAULT_FORGEJO_PROFILE, source: 'default', ignored };
}

/** Where a version that could not be used came from, in words. */
function ignoredFrom(source: ForgejoVersionSource): string {
  switch (source) {
    case 'file':
      return l10n.t("the file's forgejoVersion");
    case 'option':
      return '--forgejo-version';
    case 'setting':
      return l10n.t('the quotaState.forgejoVersion setting');
    case 'server':
      return l10n.t("the connected server's version");
    case 'default':
      return l10n.t('the default');
  }
}

/** Where the version in force came from, with the version. */
function versionFrom(source: ForgejoVersionSource, version: string): string {
  switch (source) {
    case 'file':
      return l10n.t("the file's forgejoVersion {0}", version);
    case 'option':
      return `--forgejo-version ${version}`;
    case 'setting':
      return l10n.t('the quotaState.forgejoVersion setting {0}', version);
    case 'server':
      return l10n.t('the connected server, {0}', version);
    case 'default':
      return l10n.t('no version given: the default {0}, the supported LTS line', version);
  }
}

/** "Forgejo 11.0 rules (from the file's forgejoVersion 11.0.3)": the status line and report headers. */
export function describeResolvedProfile(resolved: ResolvedForgejoProfile): string {
  // A version that was given but cannot be used is said, not silently replaced: e.g. a Gitea server has no quota API.
  const ignored = resolved.ignored.map((entry) => l10n.t('{0} ignored: {1}', ignoredFrom(entry.source), entry.message));
  return l10n.t('{0} ({1})', rulesLabel(resolved.profile), [versionFrom(resolved.source, resolved.profile.version), ...ignored].join('; '));
}
