/**
 * The quota dashboard: one webview panel, reused, showing the signed-in account, an account a
 * site administrator picks, or an account of a quota file's preview. It reloads on its Refresh
 * button and after rule or group changes made from the editor.
 */
import * as vscode from 'vscode';
import type { Page, QuotaApiClient } from '../../shared/api/client';
import type { AccountExplainer } from '../accountExplainer';
import type { ApiAccess } from '../apiAccess';
import type { Notifier } from '../notifier';
import type { QuotaFileReader } from '../quotaFile';
import { renderDashboard } from './html';
import { repositoryListItem, SHOWN_SUBJECTS, type DashboardListItem, type DashboardModel } from './model';

export type DashboardTarget = { kind: 'self' } | { kind: 'admin'; account: string } | { kind: 'file'; uri: vscode.Uri; account: string };

/** The first page of each usage list is what the dashboard shows (largest first, as the API sorts them). */
const LIST_LIMIT = 50;
/** How many of the account's largest repositories the dashboard lists. */
const REPOSITORY_LIMIT = 10;

export class QuotaDashboard implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private target: DashboardTarget | undefined;
  private model: DashboardModel | undefined;
  private html = '';
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly api: ApiAccess,
    private readonly notifier: Notifier,
    private readonly explainer: AccountExplainer,
  ) {}

  /** The figures on screen (or last computed), for tests and callers. */
  current(): { model: DashboardModel | undefined; html: string; visible: boolean } {
    return { model: this.model, html: this.html, visible: this.panel !== undefined };
  }

  /** Loads `target`; shows the panel unless `reveal` is false. Returns the model, or undefined when it could not be read. */
  async show(target: DashboardTarget, reveal = true): Promise<DashboardModel | undefined> {
    this.target = target;
    if (reveal) this.ensurePanel();
    return this.load();
  }

  /** Reloads what is shown, if anything (after a rule change, or the Refresh button). */
  async refresh(): Promise<DashboardModel | undefined> {
    return this.target ? this.load() : undefined;
  }

  private ensurePanel(): void {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel('quotaState.dashboard', 'Quota', vscode.ViewColumn.Active, {
      enableScripts: true,
      // Nothing is loaded from disk or the network: everything is in the page.
      localResourceRoots: [],
      retainContextWhenHidden: false,
    });
    this.panel = panel;
    panel.onDidDispose(() => (this.panel = undefined), null, this.disposables);
    panel.webview.onDidReceiveMessage(
      (message: unknown) => {
        if (typeof message !== 'object' || message === null) return;
        const { type, url } = message as { type?: unknown; url?: unknown };
        if (type === 'refresh') void this.refresh();
        if (type === 'open' && typeof url === 'string') void this.openOnServer(url);
      },
      null,
      this.disposables,
    );
    this.render(undefined);
  }

  /**
   * Opens a row's page in the browser. Only addresses the dashboard itself listed are opened, so
   * a page that misbehaved could not send the user anywhere else. Returns whether it was opened.
   */
  async openOnServer(url: string): Promise<boolean> {
    const model = this.model;
    const listed = [...(model?.repositories?.items ?? []), ...Object.values(model?.lists ?? {}).flat()].some((item) => item.url === url);
    if (!listed || !/^https?:\/\//i.test(url)) return false;
    return vscode.env.openExternal(vscode.Uri.parse(url, true));
  }

  private async load(): Promise<DashboardModel | undefined> {
    const target = this.target!;
    let model: DashboardModel | undefined;
    let failure: string | undefined;
    if (target.kind === 'file') {
      const outcome = await fileDashboard(target.uri, target.account, this.explainer);
      if (typeof outcome === 'string') failure = outcome;
      else model = outcome;
    } else {
      const outcome = await this.api.run(
        target.kind === 'self' ? vscode.l10n.t('Quota: reading your quota…') : vscode.l10n.t('Quota: reading the quota of "{0}"…', target.account),
        (client, signal) => (target.kind === 'self' ? selfDashboard(client, this.explainer, signal) : adminDashboard(client, this.explainer, target.account, signal)),
      );
      if (outcome.ok) model = outcome.value;
      else failure = outcome.message;
    }
    if (target !== this.target) return model; // a newer request took over
    if (failure && target.kind === 'file') void this.notifier.error(failure);
    this.model = model ?? this.model;
    this.render(model ?? this.model, failure);
    return model;
  }

  private render(model: DashboardModel | undefined, notice?: string): void {
    // Web Crypto: the same in Node and in a browser worker.
    const nonce = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
    const cspSource = this.panel?.webview.cspSource ?? 'vscode-webview:';
    this.html = renderDashboard(model, { cspSource, nonce, notice, l10n: vscode.l10n, language: vscode.env.language });
    if (!this.panel) return;
    this.panel.title = model ? vscode.l10n.t('Quota: {0}', model.account) : vscode.l10n.t('Quota');
    this.panel.webview.html = this.html;
  }

  dispose(): void {
    this.panel?.dispose();
    for (const disposable of this.disposables) disposable.dispose();
  }
}

async function selfDashboard(client: QuotaApiClient, explainer: AccountExplainer, signal: AbortSignal): Promise<DashboardModel> {
  // The lists are extras: a server without them still gets its usage and verdicts shown.
  const optional = <T>(request: Promise<Page<T>>) => request.catch((): Page<T> | undefined => undefined);
  const [user, quota, version, attachments, packages, artifacts, repositories] = await Promise.all([
    client.currentUser({ signal }),
    client.myQuota({ signal }),
    // The verdicts follow the server's Forgejo version; a server that does not say gets the default.
    client.serverVersion({ signal }).catch(() => undefined),
    optional(client.myAttachments(1, LIST_LIMIT, { signal })),
    optional(client.myPackages(1, LIST_LIMIT, { signal })),
    optional(client.myArtifacts(1, LIST_LIMIT, { signal })),
    // Forgejo's `size` order is smallest first; `reversesize` is largest first.
    optional(client.listMyRepositories({ orderBy: 'reversesize', page: 1, limit: REPOSITORY_LIMIT }, { signal })),
  ]);
  // `/user/quota` hides group and rule names; a site admin may read its own through the admin
  // route, which shows them, so the verdicts name "group pro" rather than "group #1".
  const named = user.is_admin ? await client.userQuota(user.login, { signal }).catch(() => undefined) : undefined;
  let model: DashboardModel = { ...(await explainer.server(user.login, named ?? quota, version, SHOWN_SUBJECTS)), origin: { kind: 'self', server: client.baseUrl } };
  if (repositories) model = { ...model, repositories: { items: repositories.items.map((repo) => repositoryListItem(repo, vscode.l10n)), total: repositories.total } };
  if (!attachments || !packages || !artifacts) return model;
  const lists: NonNullable<DashboardModel['lists']> = {
    attachments: attachments.items.map((a): DashboardListItem => ({ name: a.name, size: a.size, detail: a.contained_in.html_url, url: a.contained_in.html_url })),
    packages: packages.items.map((p): DashboardListItem => ({ name: `${p.name}@${p.version}`, size: p.size, detail: vscode.l10n.t('{0} package', p.type), url: p.html_url })),
    artifacts: artifacts.items.map((a): DashboardListItem => ({ name: a.name, size: a.size, detail: a.html_url, url: a.html_url })),
  };
  return { ...model, lists };
}

async function adminDashboard(client: QuotaApiClient, explainer: AccountExplainer, account: string, signal: AbortSignal): Promise<DashboardModel> {
  const [quota, version] = await Promise.all([client.userQuota(account, { signal }), client.serverVersion({ signal }).catch(() => undefined)]);
  return { ...(await explainer.server(account, quota, version, SHOWN_SUBJECTS)), origin: { kind: 'admin', server: client.baseUrl } };
}

/** The preview of one account of a quota file (its `usage` section or instance content), or why not: one request. */
async function fileDashboard(uri: vscode.Uri, account: string, explainer: AccountExplainer): Promise<DashboardModel | string> {
  const explained = await explainer.file(uri, account, SHOWN_SUBJECTS);
  return typeof explained === 'string' ? explained : { ...explained, origin: { kind: 'file', file: vscode.workspace.asRelativePath(uri) } };
}

/** Accounts a quota file can preview: those with usage first, then every other named account. */
export async function fileAccounts(uri: vscode.Uri, readQuotaFile: QuotaFileReader): Promise<string[]> {
  const summary = await readQuotaFile(uri);
  if (!summary) return [];
  return [...new Set([...Object.keys(summary.usage), ...summary.accountNames, ...Object.keys(summary.model.assignments)])];
}
