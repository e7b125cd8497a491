/**
 * The "Quota" view: your usage (share of the binding limit, refused subjects in the error colour) for everyone; the server's rules and groups for site
 * administrators (a 403 on the admin lists just hides those sections).
 */
import * as vscode from 'vscode';
import { QuotaApiError } from '../shared/api/errors';
import type { QuotaGroup, QuotaInfo, QuotaRuleInfo } from '../shared/api/types';
import { describeSize, formatSize, SUBJECT_DESCRIPTIONS } from '../shared/quota/vocabulary';
import type { ApiAccess } from './apiAccess';
import { isRepositoryNode, type LargestRepositories, type RepositoryNode } from './repositories';
import { describeRule, ruleCount } from './commands/rules';
import { SHOWN_SUBJECTS } from './dashboard/model';
import type { AccountExplainer } from './accountExplainer';

export type QuotaNode =
  | { kind: 'section'; label: string; children: QuotaNode[]; icon: string }
  | { kind: 'usage'; subject: string; bytes: number | bigint; allowed: boolean; percent?: number; limit?: number | bigint; explanation: string }
  | { kind: 'rule'; rule: QuotaRuleInfo }
  | { kind: 'group'; group: QuotaGroup }
  | { kind: 'message'; text: string; icon: string }
  | RepositoryNode;

export class QuotaTreeProvider implements vscode.TreeDataProvider<QuotaNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<QuotaNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly accountChanged = new vscode.EventEmitter<{ account: string; server: string } | undefined>();
  /** Who the view shows, after each load: for the view's description. */
  readonly onDidChangeAccount = this.accountChanged.event;

  constructor(
    private readonly api: ApiAccess,
    private readonly explainer: AccountExplainer,
    private readonly repositories?: LargestRepositories,
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Redraws one node and what it holds. */
  redraw(node: QuotaNode): void {
    this.changed.fire(node);
  }

  async getChildren(node?: QuotaNode): Promise<QuotaNode[]> {
    if (!node) return this.loadRoot();
    if (isRepositoryNode(node)) return this.repositories?.children(node) ?? [];
    if (node.kind === 'section') return node.children;
    if (node.kind === 'group') return node.group.rules.map((rule) => ({ kind: 'rule', rule }));
    return [];
  }

  getTreeItem(node: QuotaNode): vscode.TreeItem {
    if (isRepositoryNode(node)) return this.repositories!.treeItem(node);
    switch (node.kind) {
      case 'section': {
        const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        return item;
      }
      case 'usage': {
        const item = new vscode.TreeItem(node.subject);
        const share = node.percent !== undefined && node.limit !== undefined ? vscode.l10n.t(' · {0}% of {1}', node.percent, formatSize(node.limit)) : '';
        item.description = `${formatSize(node.bytes)}${share}${node.allowed ? '' : vscode.l10n.t(' · refused')}`;
        item.tooltip = vscode.l10n.t('{0}: {1} bytes.\n{2}', SUBJECT_DESCRIPTIONS[node.subject as keyof typeof SUBJECT_DESCRIPTIONS] ?? node.subject, node.bytes.toString(), node.explanation);
        // Over quota (or refused) in the theme's error colour.
        item.iconPath = node.allowed ? new vscode.ThemeIcon('pass') : new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground'));
        item.contextValue = node.allowed ? 'usage' : 'usage-over';
        item.command = { command: 'quotaState.showDashboard', title: vscode.l10n.t('Show Quota Dashboard') };
        return item;
      }
      case 'rule': {
        const item = new vscode.TreeItem(node.rule.name ?? '(unnamed rule)');
        item.description = `${formatSize(node.rule.limit)} · ${node.rule.subjects?.join(', ') || vscode.l10n.t('no subjects')}`;
        // The exact byte count too: an int64 limit beyond 2^53 must read as the server stores it.
        item.tooltip = `${describeRule(node.rule)}\n${vscode.l10n.t('limit: {0}', describeSize(node.rule.limit))}`;
        item.contextValue = 'rule';
        item.iconPath = new vscode.ThemeIcon('law');
        return item;
      }
      case 'group': {
        const item = new vscode.TreeItem(node.group.name ?? vscode.l10n.t('(unnamed group)'), vscode.TreeItemCollapsibleState.Collapsed);
        item.description = ruleCount(node.group.rules.length);
        item.contextValue = 'group';
        item.iconPath = new vscode.ThemeIcon('organization');
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text);
        item.iconPath = new vscode.ThemeIcon(node.icon);
        item.tooltip = node.text;
        return item;
      }
    }
  }

  private async loadRoot(): Promise<QuotaNode[]> {
    // Silent: with no server configured the view shows its welcome content, not a pop-up.
    const connection = await this.api.connect({ requireToken: false, quiet: true });
    if (!connection.ok || !connection.value.client.signedIn) {
      this.accountChanged.fire(undefined);
      return [];
    }
    const { client } = connection.value;
    // The verdicts follow the server's Forgejo version, as the dashboard's and the status bar's do.
    const [user, quota, rules, groups, version] = await Promise.allSettled([client.currentUser(), client.myQuota(), client.listRules(), client.listGroups(), client.serverVersion()]);
    const account = user.status === 'fulfilled' ? user.value.login : undefined;
    this.accountChanged.fire(account ? { account, server: client.baseUrl } : undefined);
    const nodes: QuotaNode[] = [];
    nodes.push(
      quota.status === 'fulfilled'
        ? {
            kind: 'section',
            label: vscode.l10n.t('My usage'),
            icon: 'dashboard',
            children: await usageNodes(this.explainer, account ?? 'you', quota.value, version.status === 'fulfilled' ? version.value : undefined),
          }
        : { kind: 'message', text: failureText(quota.reason), icon: 'error' },
    );
    if (this.repositories) nodes.push(this.repositories.section());
    if (rules.status === 'fulfilled') {
      nodes.push({
        kind: 'section',
        label: vscode.l10n.t('Rules ({0})', rules.value.length),
        icon: 'law',
        children: rules.value.map((rule): QuotaNode => ({ kind: 'rule', rule })),
      });
    } else if (!isForbidden(rules.reason)) {
      nodes.push({ kind: 'message', text: failureText(rules.reason), icon: 'error' });
    }
    if (groups.status === 'fulfilled') {
      nodes.push({
        kind: 'section',
        label: vscode.l10n.t('Groups ({0})', groups.value.length),
        icon: 'organization',
        children: groups.value.map((group): QuotaNode => ({ kind: 'group', group })),
      });
    } else if (!isForbidden(groups.reason)) {
      nodes.push({ kind: 'message', text: failureText(groups.reason), icon: 'error' });
    }
    return nodes;
  }

  dispose(): void {
    this.changed.dispose();
    this.accountChanged.dispose();
  }
}

/** One node per subject of the account's explanation: bytes, share of the limit that decides, and whether it is refused. */
async function usageNodes(explainer: AccountExplainer, account: string, quota: QuotaInfo, serverVersion: string | undefined): Promise<QuotaNode[]> {
  return (await explainer.server(account, quota, serverVersion, SHOWN_SUBJECTS)).subjects.map((row) => ({
    kind: 'usage',
    subject: row.subject,
    bytes: row.used,
    allowed: row.allowed,
    percent: row.percent,
    limit: row.decidedBy?.rule.limit,
    explanation: row.reason,
  }));
}

function isForbidden(error: unknown): boolean {
  return error instanceof QuotaApiError && error.kind === 'forbidden';
}

function failureText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
