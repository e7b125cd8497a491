/**
 * Quota subjects: the canonical spellings real Forgejo servers accept,
 * the seed's alias spellings, what each one measures, and the ancestry a rule on a parent covers.
 */

import * as l10n from '@vscode/l10n';
import { editDistance } from '../text/editDistance';
import { lazyTable } from '../text/lazyTable';

export const CANONICAL_SUBJECTS = [
  'none',
  'size:all',
  'size:repos:all',
  'size:repos:public',
  'size:repos:private',
  'size:git:all',
  'size:git:lfs',
  'size:assets:all',
  'size:assets:attachments:all',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
  'size:assets:wiki',
] as const;

export type Subject = (typeof CANONICAL_SUBJECTS)[number];

/** Seed spellings accepted everywhere and evaluated by their canonical meaning. */
export const SUBJECT_ALIASES: Readonly<Record<string, Subject>> = {
  sizeall: 'size:git:all',
  sizelfs: 'size:git:lfs',
  'size:wiki': 'size:assets:wiki',
};

/** Every string accepted as a subject: canonical spellings first, then aliases. */
export const ACCEPTED_SUBJECTS: readonly string[] = [...CANONICAL_SUBJECTS, ...Object.keys(SUBJECT_ALIASES)];

/** What a subject measures, in words. */
export function subjectDescription(subject: Subject): string {
  switch (subject) {
    case 'none':
      return l10n.t('Nothing; its usage is always 0 and checks for it are always allowed');
    case 'size:all':
      return l10n.t('Total size of everything tracked (git data and assets, without double counting)');
    case 'size:repos:all':
      return l10n.t('All repositories, excluding LFS');
    case 'size:repos:public':
      return l10n.t('All public repositories, excluding LFS');
    case 'size:repos:private':
      return l10n.t('All private repositories, excluding LFS');
    case 'size:git:all':
      return l10n.t('All git data: repositories and LFS together');
    case 'size:git:lfs':
      return l10n.t('All git LFS data, in private or public repositories');
    case 'size:assets:all':
      return l10n.t('All assets tracked: attachments, artifacts and packages');
    case 'size:assets:attachments:all':
      return l10n.t('All kinds of attachments');
    case 'size:assets:attachments:issues':
      return l10n.t('Attachments on issues, including issue comments');
    case 'size:assets:attachments:releases':
      return l10n.t('Attachments on releases; automatically generated archives are excluded');
    case 'size:assets:artifacts':
      return l10n.t('Action artifacts (expired artifacts are not counted)');
    case 'size:assets:packages:all':
      return l10n.t('All packages');
    case 'size:assets:wiki':
      return l10n.t('Wiki size; not tracked, so always within quota');
  }
}

/** `subjectDescription` as a table (the client's tree and reports read it). */
export const SUBJECT_DESCRIPTIONS: Readonly<Record<Subject, string>> = lazyTable(
  Object.fromEntries(CANONICAL_SUBJECTS.map((subject) => [subject, () => subjectDescription(subject)])) as Record<Subject, () => string>,
);

/**
 * The parent of each subject: its usage is summed into the parent, and a rule on the parent covers it.
 * `none` and the wiki are outside the tree: they are never counted in an aggregate.
 */
const SUBJECT_PARENT: Readonly<Partial<Record<Subject, Subject>>> = {
  'size:repos:public': 'size:repos:all',
  'size:repos:private': 'size:repos:all',
  'size:repos:all': 'size:git:all',
  'size:git:lfs': 'size:git:all',
  'size:git:all': 'size:all',
  'size:assets:attachments:issues': 'size:assets:attachments:all',
  'size:assets:attachments:releases': 'size:assets:attachments:all',
  'size:assets:attachments:all': 'size:assets:all',
  'size:assets:artifacts': 'size:assets:all',
  'size:assets:packages:all': 'size:assets:all',
  'size:assets:all': 'size:all',
};

/** Subjects whose usage is measured directly; every other tracked subject is a sum of these. */
export const LEAF_SUBJECTS = [
  'size:repos:public',
  'size:repos:private',
  'size:git:lfs',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
] as const satisfies readonly Subject[];

export type LeafSubject = (typeof LEAF_SUBJECTS)[number];

const CANONICAL_SET: ReadonlySet<string> = new Set(CANONICAL_SUBJECTS);

function isCanonicalSubject(value: string): value is Subject {
  return CANONICAL_SET.has(value);
}

export function isSubjectAlias(value: string): boolean {
  return Object.prototype.hasOwnProperty.call(SUBJECT_ALIASES, value);
}

/** The canonical meaning of an accepted spelling, or undefined when it is not a subject. Case-sensitive. */
export function canonicalSubject(value: string): Subject | undefined {
  if (isCanonicalSubject(value)) return value;
  return isSubjectAlias(value) ? SUBJECT_ALIASES[value] : undefined;
}

/** Ancestors from the nearest upward, e.g. size:repos:public → [size:repos:all, size:git:all, size:all]. */
export function subjectAncestors(subject: Subject): Subject[] {
  const result: Subject[] = [];
  for (let parent = SUBJECT_PARENT[subject]; parent; parent = SUBJECT_PARENT[parent]) result.push(parent);
  return result;
}

/** The leaf subjects whose usage makes up `subject` (itself when it is a leaf). */
export function subjectLeaves(subject: Subject): LeafSubject[] {
  return LEAF_SUBJECTS.filter((leaf) => leaf === subject || subjectAncestors(leaf).includes(subject));
}

export function isLeafSubject(value: string): value is LeafSubject {
  return (LEAF_SUBJECTS as readonly string[]).includes(value);
}

/**
 * The canonical subjects closest to a mistyped one, best first (at most `max`).
 * Case differences are cheap, so `Size:All` suggests `size:all` first.
 */
export function suggestSubjects(value: string, max = 3): Subject[] {
  const lowered = value.trim().toLowerCase();
  const aliasTarget = canonicalSubject(lowered);
  const scored = CANONICAL_SUBJECTS.map((subject) => {
    let distance = editDistance(lowered, subject);
    // Dropping a middle segment (`size:lfs` for `size:git:lfs`) is a common slip: same last segment ranks higher.
    const lastSegment = lowered.slice(lowered.lastIndexOf(':') + 1);
    if (lastSegment && subject.endsWith(`:${lastSegment}`)) distance -= 2;
    if (subject === aliasTarget) distance = -10;
    return { subject, distance };
  });
  const threshold = Math.max(3, Math.floor(lowered.length / 2));
  return scored
    .filter((s) => s.distance <= threshold)
    .sort((a, b) => a.distance - b.distance || CANONICAL_SUBJECTS.indexOf(a.subject) - CANONICAL_SUBJECTS.indexOf(b.subject))
    .slice(0, max)
    .map((s) => s.subject);
}
