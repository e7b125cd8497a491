/**
 * What the quota dashboard shows: one account's explanation (shared/quota/explain.ts), where it
 * comes from, and for the signed-in account its largest items. Pure (no `vscode` at run time), so
 * tests can render it; the strings people read go through the `l10n` the caller passes
 * (`vscode.l10n` in the extension), where `npm run l10n:export` finds them.
 */
import type * as vscode from 'vscode';
import { type AccountExplanation, CANONICAL_SUBJECTS } from '../../shared/quota/vocabulary';

/** `vscode.l10n`, or `@vscode/l10n` (English without a bundle) where there is no editor. */
export type L10n = Pick<typeof vscode.l10n, 't'>;

export interface DashboardListItem {
  name: string;
  size: number;
  detail: string;
  url?: string;
}

export interface DashboardModel extends AccountExplanation {
  /** Where the figures come from: the server (self or an account an admin picked) or a quota file's preview. */
  origin: { kind: 'self' | 'admin'; server: string } | { kind: 'file'; file: string };
  /** Only for the signed-in account: the API lists these for `/user` only. */
  lists?: { attachments: DashboardListItem[]; packages: DashboardListItem[]; artifacts: DashboardListItem[] };
  /** Only for the signed-in account: its largest repositories, largest first, and how many it owns in all. */
  repositories?: { items: DashboardListItem[]; total: number };
}

/** Subjects the dashboard and the Quota view show: everything measurable (`none` measures nothing). */
export const SHOWN_SUBJECTS = CANONICAL_SUBJECTS.filter((subject) => subject !== 'none');

/** Forgejo reports a repository's size (git plus LFS) in KiB. */
const REPOSITORY_SIZE_UNIT = 1024;

/** A repository as a dashboard row: its size in bytes, and its page on the server. */
export function repositoryListItem(repo: { full_name: string; size: number; private?: boolean; html_url?: string }, l10n: L10n): DashboardListItem {
  return { name: repo.full_name, size: repo.size * REPOSITORY_SIZE_UNIT, detail: repo.private ? l10n.t('private') : l10n.t('public'), url: repo.html_url };
}
