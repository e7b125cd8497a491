/**
 * "Largest repositories": the signed-in user's repositories, largest first, in the Quota view
 * (a section that loads a page at a time, with a "Load more" item) and in the palette
 * (Quota: List My Largest Repositories, a paginated quick pick). Each repository shows its
 * size and opens on the server.
 *
 * Largest first is Forgejo's `order_by=reversesize`: its `size` order is smallest first.
 */
import * as vscode from 'vscode';
import type { Page, QuotaApiClient } from '../shared/api/client';
import type { Repository } from '../shared/api/types';
import { formatSize } from '../shared/quota/vocabulary';
import type { ApiAccess } from './apiAccess';
import { argumentsOf } from './commands/context';

const LARGEST_FIRST = 'reversesize';
/** Repositories per page in the view and the quick pick. */
const REPOSITORY_PAGE_SIZE = 10;

const OPEN_REPOSITORY_COMMAND = 'quotaState.openRepository';
const LOAD_MORE_REPOSITORIES_COMMAND = 'quotaState.loadMoreRepositories';
const LIST_LARGEST_REPOSITORIES_COMMAND = 'quotaState.listLargestRepositories';

/** The section and what it holds; the section keeps what it has loaded so far. */
export type RepositoryNode =
  | { kind: 'repositories'; loaded: Repository[]; nextPage: number; hasMore: boolean; total?: number; error?: string }
  | { kind: 'repository'; repository: Repository }
  | { kind: 'moreRepositories'; section: RepositoryNode & { kind: 'repositories' } };

type SectionNode = Extract<RepositoryNode, { kind: 'repositories' }>;

export function isRepositoryNode(node: { kind: string }): node is RepositoryNode {
  return node.kind === 'repositories' || node.kind === 'repository' || node.kind === 'moreRepositories';
}

/** Forgejo reports `size` in KiB. */
function repositoryBytes(repository: Repository): number {
  return Math.max(0, repository.size) * 1024;
}

function repositoryLabel(repository: Repository): string {
  return repository.full_name || repository.name;
}

function fetchLargest(client: QuotaApiClient, page: number, limit: number, signal?: AbortSignal): Promise<Page<Repository>> {
  return client.listMyRepositories({ orderBy: LARGEST_FIRST, page, limit }, { signal });
}

export class LargestRepositories {
  constructor(
    private readonly api: ApiAccess,
    /** Redraws one node of the view (the section after "Load more"). */
    private readonly redraw: (node: RepositoryNode) => void,
    /** Opens a URL outside VS Code (vscode.env.openExternal; tests pass a recorder). */
    private readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>,
  ) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(OPEN_REPOSITORY_COMMAND, (target?: unknown) => this.open(target)),
      vscode.commands.registerCommand(LOAD_MORE_REPOSITORIES_COMMAND, (node?: unknown) => this.loadMore(node)),
      vscode.commands.registerCommand(LIST_LARGEST_REPOSITORIES_COMMAND, (args?: unknown) => this.list(args)),
    ];
  }

  /** A fresh, collapsed section: nothing is fetched until it is expanded. */
  section(): SectionNode {
    return { kind: 'repositories', loaded: [], nextPage: 1, hasMore: true };
  }

  async children(node: RepositoryNode): Promise<RepositoryNode[]> {
    if (node.kind !== 'repositories') return [];
    if (node.loaded.length === 0 && node.hasMore && node.error === undefined) await this.fetchInto(node);
    const nodes: RepositoryNode[] = node.loaded.map((repository) => ({ kind: 'repository', repository }));
    if (node.hasMore && node.error === undefined) nodes.push({ kind: 'moreRepositories', section: node });
    return nodes;
  }

  treeItem(node: RepositoryNode): vscode.TreeItem {
    switch (node.kind) {
      case 'repositories': {
        const item = new vscode.TreeItem('Largest repositories', vscode.TreeItemCollapsibleState.Collapsed);
        item.iconPath = new vscode.ThemeIcon('repo');
        item.description = node.error ?? (node.total !== undefined ? `${node.total}` : undefined);
        item.tooltip = vscode.l10n.t('Your repositories, largest first (git and LFS together)');
        return item;
      }
      case 'repository': {
        const { repository } = node;
        const item = new vscode.TreeItem(repositoryLabel(repository));
        item.description = formatSize(repositoryBytes(repository));
        item.tooltip = `${repositoryLabel(repository)}: ${formatSize(repositoryBytes(repository))}${repository.private ? ' (private)' : ''}${repository.html_url ? `\n${repository.html_url}` : ''}`;
        item.iconPath = new vscode.ThemeIcon(repository.private ? 'lock' : 'repo');
        item.contextValue = 'repository';
        if (repository.html_url) {
          item.command = { command: OPEN_REPOSITORY_COMMAND, title: vscode.l10n.t('Open on the Server'), arguments: [repository.html_url] };
        }
        return item;
      }
      case 'moreRepositories': {
        const item = new vscode.TreeItem('Load more…');
        item.iconPath = new vscode.ThemeIcon('refresh');
        item.description = node.section.total !== undefined ? vscode.l10n.t('{0} of {1} shown', node.section.loaded.length, node.section.total) : undefined;
        item.command = { command: LOAD_MORE_REPOSITORIES_COMMAND, title: vscode.l10n.t('Load More Repositories'), arguments: [node] };
        return item;
      }
    }
  }

  /** Fetches the section's next page and redraws it; returns the repositories shown. */
  async loadMore(target?: unknown): Promise<Repository[] | undefined> {
    const node = argumentsOf<RepositoryNode>(target);
    const section = node?.kind === 'moreRepositories' ? node.section : node?.kind === 'repositories' ? (node as SectionNode) : undefined;
    if (!section || !Array.isArray(section.loaded)) return undefined;
    await this.fetchInto(section);
    this.redraw(section);
    return section.loaded;
  }

  /** Opens a repository's page (its html_url, or a Repository with one); returns the URL opened. */
  async open(target?: unknown): Promise<string | undefined> {
    // A URL (the item's own command), the view's node (its inline action) or a repository.
    const given = argumentsOf<RepositoryNode & Repository>(target);
    const repository = given?.kind === 'repository' ? (given as { repository: Repository }).repository : given;
    const url = typeof target === 'string' ? target : (repository?.html_url as string | undefined);
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return undefined;
    await this.openExternal(vscode.Uri.parse(url));
    return url;
  }

  /**
   * With `{page, limit}` returns that page; otherwise a quick pick that fetches the next page
   * when "Load more…" is chosen and opens the chosen repository on the server.
   */
  async list(args?: unknown): Promise<Page<Repository> | Repository[] | undefined> {
    const given = argumentsOf<{ page: number; limit: number }>(args);
    if (given && (given.page !== undefined || given.limit !== undefined)) {
      const page = typeof given.page === 'number' && given.page >= 1 ? Math.floor(given.page) : 1;
      const limit = typeof given.limit === 'number' && given.limit >= 1 ? Math.floor(given.limit) : REPOSITORY_PAGE_SIZE;
      const result = await this.api.run(vscode.l10n.t('Quota: listing your largest repositories…'), (client, signal) => fetchLargest(client, page, limit, signal));
      return result.ok ? result.value : undefined;
    }
    const loaded: Repository[] = [];
    let page = 0;
    let hasMore = true;
    const loadMore = '$(refresh) Load more…';
    while (hasMore) {
      const next = page + 1;
      const result = await this.api.run(vscode.l10n.t('Quota: listing your largest repositories (page {0})…', next), (client, signal) => fetchLargest(client, next, REPOSITORY_PAGE_SIZE, signal));
      if (!result.ok) return loaded;
      page = next;
      loaded.push(...result.value.items);
      hasMore = result.value.hasMore;
      const items: Array<vscode.QuickPickItem & { url?: string }> = loaded.map((repository) => ({
        label: repositoryLabel(repository),
        description: formatSize(repositoryBytes(repository)),
        detail: repository.html_url,
        url: repository.html_url,
      }));
      if (hasMore) items.push({ label: loadMore, description: `${loaded.length} of ${result.value.total} shown` });
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Your repositories ({0}), largest first', result.value.total),
        matchOnDescription: true,
      });
      if (!picked) break;
      if (picked.label !== loadMore) {
        if (picked.url) await this.open(picked.url);
        break;
      }
    }
    return loaded;
  }

  private async fetchInto(section: SectionNode): Promise<void> {
    if (!section.hasMore) return;
    const connection = await this.api.connect({ requireToken: false });
    if (!connection.ok || !connection.value.client.signedIn) {
      section.hasMore = false;
      return;
    }
    try {
      const page = await fetchLargest(connection.value.client, section.nextPage, REPOSITORY_PAGE_SIZE);
      // A repository that moved between pages while loading is listed once.
      const shown = new Set(section.loaded.map((repository) => repository.id));
      section.loaded.push(...page.items.filter((repository) => !shown.has(repository.id)));
      section.nextPage += 1;
      section.hasMore = page.hasMore;
      section.total = page.total;
      section.error = undefined;
    } catch (error) {
      section.error = error instanceof Error ? error.message : String(error);
    }
  }
}
