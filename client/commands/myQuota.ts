/**
 * Commands for every signed-in user: Show My Quota, Check Quota for Subject, and the
 * paginated lists of attachments, packages and artifacts (with "load more").
 */
import * as vscode from 'vscode';
import type { Page, QuotaApiClient } from '../../shared/api/client';
import type { QuotaInfo } from '../../shared/api/types';
import { formatSize } from '../../shared/quota/vocabulary';
import { SHOWN_SUBJECTS } from '../dashboard/model';
import { askSubject } from '../prompts';
import { describeCheck, explainCheck, formatMyQuota } from '../usageReport';
import { argumentsOf, stringArgument, type CommandContext } from './context';

type ListKind = 'attachments' | 'packages' | 'artifacts';

interface ListedItem {
  name: string;
  size: number;
  detail: string;
  url?: string;
}

const LOAD_MORE = '$(refresh) Load more…';

function fetchPage(client: QuotaApiClient, kind: ListKind, page: number, limit: number | undefined, signal: AbortSignal): Promise<Page<ListedItem>> {
  switch (kind) {
    case 'attachments':
      return client.myAttachments(page, limit, { signal }).then((result) => ({
        ...result,
        items: result.items.map((a) => ({ name: a.name, size: a.size, detail: a.contained_in.html_url, url: a.contained_in.html_url })),
      }));
    case 'packages':
      return client.myPackages(page, limit, { signal }).then((result) => ({
        ...result,
        items: result.items.map((p) => ({ name: `${p.name}@${p.version}`, size: p.size, detail: vscode.l10n.t('{0} package', p.type), url: p.html_url })),
      }));
    case 'artifacts':
      return client.myArtifacts(page, limit, { signal }).then((result) => ({
        ...result,
        items: result.items.map((a) => ({ name: a.name, size: a.size, detail: a.html_url, url: a.html_url })),
      }));
  }
}

export class MyQuotaCommands {
  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.showMyQuota', (args?: unknown) => this.showMyQuota(args)),
      vscode.commands.registerCommand('quotaState.checkQuota', (args?: unknown) => this.check(args)),
      vscode.commands.registerCommand('quotaState.listAttachments', (args?: unknown) => this.list('attachments', args)),
      vscode.commands.registerCommand('quotaState.listPackages', (args?: unknown) => this.list('packages', args)),
      vscode.commands.registerCommand('quotaState.listArtifacts', (args?: unknown) => this.list('artifacts', args)),
    ];
  }

  /** Opens a readable report; returns it (and the raw answer) for callers such as tests. */
  async showMyQuota(args?: unknown): Promise<{ quota: QuotaInfo; text: string } | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: reading your quota…'), async (client, signal) => {
      const [user, quota, version] = await Promise.all([client.currentUser({ signal }).catch(() => undefined), client.myQuota({ signal }), client.serverVersion({ signal }).catch(() => undefined)]);
      return { explanation: await this.context.explainer.server(user?.login ?? 'your account', quota, version, SHOWN_SUBJECTS), quota, server: client.baseUrl };
    });
    if (!result.ok) return undefined;
    const text = formatMyQuota(result.value.explanation, result.value.server);
    // Shown in the dashboard (one reused panel), not as an unsaved Markdown document per run.
    if (argumentsOf<{ show: boolean }>(args)?.show !== false) await vscode.commands.executeCommand('quotaState.showDashboard');
    return { quota: result.value.quota, text };
  }

  /** Answers in words; returns `{subject, withinQuota, message}`. */
  async check(args?: unknown): Promise<{ subject: string; withinQuota: boolean; message: string } | undefined> {
    const subject =
      (typeof args === 'string' ? stringArgument(args) : stringArgument(argumentsOf<{ subject: string }>(args)?.subject)) ?? (await askSubject('Quota: check your quota for which subject?'));
    if (subject === undefined) return undefined;
    const result = await this.context.api.run(vscode.l10n.t('Quota: checking "{0}"…', subject), async (client, signal) => {
      const [withinQuota, user, quota, version] = await Promise.all([
        client.checkMyQuota(subject, { signal }),
        client.currentUser({ signal }),
        client.myQuota({ signal }),
        client.serverVersion({ signal }).catch(() => undefined),
      ]);
      return { withinQuota, server: client.baseUrl, why: explainCheck(await this.context.explainer.server(user.login, quota, version, [subject]), subject, withinQuota) };
    });
    if (!result.ok) return undefined;
    const message = describeCheck(subject, result.value.withinQuota, result.value.server, result.value.why);
    if (result.value.withinQuota) void this.context.notifier.info(message);
    else void this.context.notifier.warning(message);
    return { subject, withinQuota: result.value.withinQuota, message };
  }

  /**
   * With `{page, limit}` returns that page; otherwise shows a quick pick that fetches the next
   * page when "Load more…" is chosen.
   */
  async list(kind: ListKind, args?: unknown): Promise<Page<ListedItem> | ListedItem[] | undefined> {
    const given = argumentsOf<{ page: number; limit: number }>(args);
    if (given && (given.page !== undefined || given.limit !== undefined)) {
      const page = typeof given.page === 'number' && given.page >= 1 ? Math.floor(given.page) : 1;
      const limit = typeof given.limit === 'number' && given.limit >= 1 ? Math.floor(given.limit) : undefined;
      const result = await this.context.api.run(vscode.l10n.t('Quota: listing your {0}…', kind), (client, signal) => fetchPage(client, kind, page, limit, signal));
      return result.ok ? result.value : undefined;
    }
    const loaded: ListedItem[] = [];
    let page = 0;
    let hasMore = true;
    let total = 0;
    while (hasMore) {
      const next = page + 1;
      const result = await this.context.api.run(vscode.l10n.t('Quota: listing your {0} (page {1})…', kind, next), (client, signal) => fetchPage(client, kind, next, undefined, signal));
      if (!result.ok) return loaded;
      page = next;
      loaded.push(...result.value.items);
      hasMore = result.value.hasMore;
      total = result.value.total;
      const items: Array<vscode.QuickPickItem & { url?: string }> = loaded.map((item) => ({
        label: item.name,
        description: formatSize(item.size),
        detail: item.detail,
        url: item.url,
      }));
      if (hasMore) items.push({ label: LOAD_MORE, description: `${loaded.length} of ${total} shown` });
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t('Your {0} counted against your quota ({1}), largest first', kind, total),
        matchOnDetail: true,
      });
      if (!picked) break;
      if (picked.label !== LOAD_MORE) {
        if (picked.url) void vscode.env.openExternal(vscode.Uri.parse(picked.url));
        break;
      }
    }
    return loaded;
  }
}
