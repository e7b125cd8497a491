/**
 * Group commands: create, delete, add/remove a rule, add/remove a user, set a user's groups.
 * Arguments (`{group, rule}`, `{group, user}`, `{user, groups}`) skip every prompt.
 */
import * as vscode from 'vscode';
import type { QuotaApiClient } from '../../shared/api/client';
import type { QuotaGroup } from '../../shared/api/types';
import { nameProblem } from '../prompts';
import { argumentsOf, stringArgument, type CommandContext } from './context';
import { describeRule, ruleCount } from './rules';

const DELETE = vscode.l10n.t('Delete');
const RETRY = vscode.l10n.t('Retry');

interface GroupArgs {
  name: string;
  group: string | QuotaGroup;
  rule: string | { name?: string };
  rules: string[];
  user: string;
  groups: string[];
  confirm: boolean;
}

function groupNameOf(args: Partial<GroupArgs> | undefined): string | undefined {
  if (!args) return undefined;
  if (typeof args.group === 'object' && args.group !== null) return stringArgument(args.group.name);
  return stringArgument(args.group) ?? stringArgument(args.name);
}

function ruleNameOf(args: Partial<GroupArgs> | undefined): string | undefined {
  if (!args) return undefined;
  return typeof args.rule === 'object' && args.rule !== null ? stringArgument(args.rule.name) : stringArgument(args.rule);
}

export class GroupCommands {
  private createDraft: { name: string; rules: string[] } | undefined;

  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.createGroup', (args?: unknown) => this.create(args)),
      vscode.commands.registerCommand('quotaState.deleteGroup', (args?: unknown) => this.delete(args)),
      vscode.commands.registerCommand('quotaState.addRuleToGroup', (args?: unknown) => this.changeRule(args, 'add')),
      vscode.commands.registerCommand('quotaState.removeRuleFromGroup', (args?: unknown) => this.changeRule(args, 'remove')),
      vscode.commands.registerCommand('quotaState.addUserToGroup', (args?: unknown) => this.changeUser(args, 'add')),
      vscode.commands.registerCommand('quotaState.removeUserFromGroup', (args?: unknown) => this.changeUser(args, 'remove')),
      vscode.commands.registerCommand('quotaState.setUserGroups', (args?: unknown) => this.setUserGroups(args)),
    ];
  }

  async create(args?: unknown): Promise<QuotaGroup | undefined> {
    const given = argumentsOf<GroupArgs>(args);
    let name = groupNameOf(given);
    let rules = Array.isArray(given?.rules) ? given!.rules.filter((r): r is string => typeof r === 'string') : [];
    if (!name) {
      const draft = this.createDraft;
      name = await vscode.window.showInputBox({
        title: vscode.l10n.t('Quota: new group name'),
        value: draft?.name,
        ignoreFocusOut: true,
        validateInput: (input) => nameProblem(input, 'group'),
      });
      if (!name) return undefined;
      const picked = await this.pickRules(`Rules of the group "${name}" (optional)`, draft?.rules ?? []);
      if (picked === undefined) return undefined;
      rules = picked;
    }
    const problem = nameProblem(name, 'group');
    if (problem) {
      void this.context.notifier.error(vscode.l10n.t('Could not create the group: {0}', problem));
      return undefined;
    }
    const groupName = name.trim();
    const result = await this.context.api.run(
      vscode.l10n.t('Quota: creating group "{0}"…', groupName),
      async (client, signal) => {
        // Created empty, then each existing rule attached: inline rules would silently create missing ones with limit 0.
        await client.createGroup({ name: groupName }, { signal });
        for (const rule of rules) await client.addRuleToGroup(groupName, rule, { signal });
        return client.getGroup(groupName, { signal });
      },
      { quiet: true },
    );
    if (!result.ok) {
      this.createDraft = { name: groupName, rules };
      if (result.shown) return undefined;
      void this.context.notifier.error(result.message, RETRY).then((choice) => {
        if (choice === RETRY) void this.create();
      });
      this.context.serverChanged();
      return undefined;
    }
    this.createDraft = undefined;
    void this.context.notifier.info(
      rules.length ? vscode.l10n.t('Created the group "{0}" with {1}.', groupName, rules.map((r) => `"${r}"`).join(', ')) : vscode.l10n.t('Created the group "{0}" (no rules yet).', groupName),
    );
    this.context.serverChanged();
    return result.value;
  }

  async delete(args?: unknown): Promise<boolean> {
    const given = typeof args === 'string' ? { group: args } : argumentsOf<GroupArgs>(args);
    const name = groupNameOf(given) ?? (await this.pickGroup('Delete which group?'));
    if (!name) return false;
    const confirmed =
      given?.confirm === true ||
      (await vscode.window.showWarningMessage(vscode.l10n.t('Delete the quota group "{0}"? Its members lose it; its rules are kept.', name), { modal: true }, DELETE)) === DELETE;
    if (!confirmed) return false;
    const result = await this.context.api.run(vscode.l10n.t('Quota: deleting group "{0}"…', name), (client, signal) => client.deleteGroup(name, { signal }));
    if (!result.ok) return false;
    void this.context.notifier.info(vscode.l10n.t('Deleted the group "{0}".', name));
    this.context.serverChanged();
    return true;
  }

  async changeRule(args: unknown, change: 'add' | 'remove'): Promise<boolean> {
    const given = argumentsOf<GroupArgs>(args);
    const group = groupNameOf(given) ?? (await this.pickGroup(change === 'add' ? 'Add a rule to which group?' : 'Remove a rule from which group?'));
    if (!group) return false;
    const rule = ruleNameOf(given) ?? (await this.pickRule(group, change));
    if (!rule) return false;
    const result = await this.context.api.run(
      change === 'add' ? vscode.l10n.t('Quota: adding "{0}" to "{1}"…', rule, group) : vscode.l10n.t('Quota: removing "{0}" from "{1}"…', rule, group),
      (client, signal) => (change === 'add' ? client.addRuleToGroup(group, rule, { signal }) : client.removeRuleFromGroup(group, rule, { signal })),
    );
    if (!result.ok) return false;
    void this.context.notifier.info(
      change === 'add' ? vscode.l10n.t('Added the rule "{0}" to the group "{1}".', rule, group) : vscode.l10n.t('Removed the rule "{0}" from the group "{1}".', rule, group),
    );
    this.context.serverChanged();
    return true;
  }

  async changeUser(args: unknown, change: 'add' | 'remove'): Promise<boolean> {
    const given = argumentsOf<GroupArgs>(args);
    const group = groupNameOf(given) ?? (await this.pickGroup(change === 'add' ? 'Add a user to which group?' : 'Remove a user from which group?'));
    if (!group) return false;
    let user = stringArgument(given?.user);
    if (!user) {
      if (change === 'add') {
        user = await vscode.window.showInputBox({ title: vscode.l10n.t('Quota: user or organization to add to "{0}"', group), ignoreFocusOut: true });
      } else {
        const members = await this.context.api.run(vscode.l10n.t('Quota: listing members of "{0}"…', group), (client, signal) => client.groupUsers(group, { signal }));
        if (!members.ok) return false;
        user =
          (await vscode.window.showQuickPick(
            members.value.map((member) => member.login),
            { title: vscode.l10n.t('Remove whom from "{0}"?', group) },
          )) ?? undefined;
      }
    }
    if (!user) return false;
    const member = user.trim();
    const result = await this.context.api.run(
      change === 'add' ? vscode.l10n.t('Quota: adding "{0}" to "{1}"…', member, group) : vscode.l10n.t('Quota: removing "{0}" from "{1}"…', member, group),
      (client, signal) => (change === 'add' ? client.addUserToGroup(group, member, { signal }) : client.removeUserFromGroup(group, member, { signal })),
    );
    if (!result.ok) return false;
    void this.context.notifier.info(change === 'add' ? vscode.l10n.t('Added "{0}" to the group "{1}".', member, group) : vscode.l10n.t('Removed "{0}" from the group "{1}".', member, group));
    this.context.serverChanged();
    return true;
  }

  async setUserGroups(args?: unknown): Promise<boolean> {
    const given = argumentsOf<GroupArgs>(args);
    const user = stringArgument(given?.user) ?? (await vscode.window.showInputBox({ title: vscode.l10n.t('Quota: set the groups of which user or organization?'), ignoreFocusOut: true }));
    if (!user) return false;
    let groups = Array.isArray(given?.groups) ? given!.groups.filter((g): g is string => typeof g === 'string') : undefined;
    if (!groups) {
      const loaded = await this.context.api.run(vscode.l10n.t('Quota: reading the groups of "{0}"…', user), async (client, signal) => ({
        all: await client.listGroups({ signal }),
        current: await client.userQuota(user, { signal }),
      }));
      if (!loaded.ok) return false;
      const current = new Set(loaded.value.current.groups.map((group) => group.name));
      const picked = await vscode.window.showQuickPick(
        loaded.value.all.map((group) => ({
          label: group.name ?? '',
          picked: current.has(group.name),
          detail: group.rules.length ? group.rules.map(describeRule).join('; ') : vscode.l10n.t('no rules'),
        })),
        { title: vscode.l10n.t('Groups of "{0}" (none selected: the default groups apply)', user), canPickMany: true },
      );
      if (!picked) return false;
      groups = picked.map((item) => item.label);
    }
    const chosen = groups;
    const result = await this.context.api.run(vscode.l10n.t('Quota: setting the groups of "{0}"…', user), (client, signal) => client.setUserGroups(user, chosen, { signal }));
    if (!result.ok) return false;
    void this.context.notifier.info(
      chosen.length ? vscode.l10n.t('"{0}" is now in {1}.', user, chosen.map((g) => `"${g}"`).join(', ')) : vscode.l10n.t('"{0}" has no explicit group any more; the default groups apply.', user),
    );
    this.context.serverChanged();
    return true;
  }

  private async pickGroup(title: string): Promise<string | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: listing groups…'), (client, signal) => client.listGroups({ signal }));
    if (!result.ok) return undefined;
    const picked = await vscode.window.showQuickPick(
      result.value.map((group) => ({ label: group.name ?? '', description: ruleCount(group.rules.length) })),
      { title },
    );
    return picked?.label;
  }

  private async pickRules(title: string, picked: string[]): Promise<string[] | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: listing rules…'), (client, signal) => client.listRules({ signal }));
    if (!result.ok) return undefined;
    const chosen = await vscode.window.showQuickPick(
      result.value.map((rule) => ({ label: rule.name ?? '', description: describeRule(rule), picked: picked.includes(rule.name ?? '') })),
      { title, canPickMany: true },
    );
    return chosen?.map((item) => item.label);
  }

  private async pickRule(group: string, change: 'add' | 'remove'): Promise<string | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: listing rules…'), async (client: QuotaApiClient, signal) =>
      change === 'add' ? client.listRules({ signal }) : (await client.getGroup(group, { signal })).rules,
    );
    if (!result.ok) return undefined;
    const picked = await vscode.window.showQuickPick(
      result.value.map((rule) => ({ label: rule.name ?? '', description: describeRule(rule) })),
      { title: change === 'add' ? vscode.l10n.t('Add which rule to "{0}"?', group) : vscode.l10n.t('Remove which rule from "{0}"?', group) },
    );
    return picked?.label;
  }
}
