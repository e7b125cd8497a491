/**
 * The Backends view's nodes (backend → stack → History and Backups → versions and backups; backend →
 * Deleted → removed stacks) and what
 * both the tree (tree.ts) and its commands (commands.ts) read off them: the file a node stands for,
 * the words a title names it by, a backup's time and version, and times as "3 days ago".
 */
import * as vscode from 'vscode';
import type { BackendStack, DeletedEntry, HistoryEntry } from '../../shared/backend/vocabulary';

type BackendNode = { kind: 'backend'; root: vscode.Uri; legacy?: boolean };
type StackNode = { kind: 'stack'; root: vscode.Uri; stack: BackendStack; last?: HistoryEntry };
type GroupNode = { kind: 'history' | 'backups'; root: vscode.Uri; stack: BackendStack };
type EntryNode = { kind: 'entry'; root: vscode.Uri; stack: BackendStack; entry: HistoryEntry; previous?: HistoryEntry };
type BackupNode = { kind: 'backup'; root: vscode.Uri; stack: BackendStack; name: string };
/** The backend's removed stacks (`.pulumi/deleted/`), and one of them. */
type DeletedGroupNode = { kind: 'deleted'; root: vscode.Uri; entries: DeletedEntry[] };
type DeletedStackNode = { kind: 'deletedStack'; root: vscode.Uri; entry: DeletedEntry };
export type MoreNode = { kind: 'more'; root: vscode.Uri; stack: BackendStack; shown: number };
export type ProblemNode = { kind: 'problem'; message: string };
export type BackendTreeNode = BackendNode | StackNode | GroupNode | EntryNode | BackupNode | DeletedGroupNode | DeletedStackNode | MoreNode | ProblemNode;

export function relativeTime(iso: string): string {
  const seconds = Math.round((Date.now() - Date.parse(iso)) / 1000);
  const format = new Intl.RelativeTimeFormat(vscode.env.language, { numeric: 'auto' });
  for (const [unit, size] of [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    if (Math.abs(seconds) >= size) return format.format(-Math.round(seconds / size), unit);
  }
  return format.format(-seconds, 'second');
}

/**
 * A backup's time (from its `<UnixNano>`) and the version it holds: Pulumi copies the stack file to
 * the backups right after it writes an update's history entry (diy's apply: addToHistory, then
 * backupStack), so a backup holds the state of the newest entry written before it.
 */
export function backupOf(stack: BackendStack, name: string): { time?: string; iso?: string; version?: number } {
  const nano = /\.(\d+)\.json(\.gz|\.zst)?$/.exec(name)?.[1];
  if (!nano) return {};
  const ms = Number(BigInt(nano) / 1_000_000n);
  const time = new Intl.DateTimeFormat(vscode.env.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(ms);
  const version = stack.historyIds.filter((id) => BigInt(id) <= BigInt(nano)).length;
  return { time, iso: new Date(ms).toISOString(), ...(version ? { version } : {}) };
}

/** How titles and messages name a node's file: `version 4`, `backup before version 4`, `current`. */
export function nodeLabel(node: BackendTreeNode): string {
  if (node.kind === 'entry') return vscode.l10n.t('version {0}', node.entry.version);
  if (node.kind === 'backup') {
    const backup = backupOf(node.stack, node.name);
    return backup.version ? vscode.l10n.t('backup of version {0}', backup.version) : node.name.slice(node.name.lastIndexOf('/') + 1);
  }
  if (node.kind === 'stack') return vscode.l10n.t('current');
  return '';
}

/** The file a node stands for: the stack file, an entry's checkpoint, a backup. */
export function fileOf(node: BackendTreeNode | undefined): vscode.Uri | undefined {
  if (!node || !('root' in node)) return undefined;
  const name = node.kind === 'entry' ? node.entry.checkpoint : node.kind === 'backup' ? node.name : node.kind === 'stack' ? node.stack.file?.name : undefined;
  return name ? vscode.Uri.joinPath(node.root, ...name.split('/')) : undefined;
}
