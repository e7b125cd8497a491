/**
 * Rule commands: List, Create, Edit, Delete. Each runs without UI when given arguments
 * (`{name, limit, subjects}`), checks a new rule's name against the server's while it is typed,
 * and keeps the user's input after a failed create or edit.
 */
import * as vscode from 'vscode';
import { QuotaApiError } from '../../shared/api/errors';
import type { QuotaRuleInfo } from '../../shared/api/types';
import { describeSize, formatSize } from '../../shared/quota/vocabulary';
import { askLimit, askName, askSubjects, limitFromArgument, nameProblem, subjectsFromArgument } from '../prompts';
import { argumentsOf, stringArgument, type CommandContext } from './context';

interface RuleDraft {
  name?: string;
  limit?: number;
  subjects?: string[];
}

const RETRY = vscode.l10n.t('Retry');
const CHANGE_AND_RETRY = vscode.l10n.t('Change and Retry');
const EDIT = vscode.l10n.t('Edit');

/**
 * What to offer after a failed create or edit: the same request again only when it could succeed
 * (connection, timeout, server error); otherwise the prompts again, filled with what was typed.
 */
function retryChoice(error: unknown): typeof RETRY | typeof CHANGE_AND_RETRY | undefined {
  if (!(error instanceof QuotaApiError)) return undefined;
  if (['network', 'timeout', 'server'].includes(error.kind)) return RETRY;
  if (['conflict', 'validation', 'bad-request'].includes(error.kind)) return CHANGE_AND_RETRY;
  return undefined;
}
const DELETE = vscode.l10n.t('Delete');

export function describeRule(rule: QuotaRuleInfo): string {
  const name = rule.name ?? vscode.l10n.t('(unnamed)');
  return rule.subjects?.length ? vscode.l10n.t('{0}: {1} on {2}', name, formatSize(rule.limit), rule.subjects.join(', ')) : vscode.l10n.t('{0}: {1} on no subjects', name, formatSize(rule.limit));
}

/** "3 rules": a group's size, for the tree and the group picker. */
export function ruleCount(count: number): string {
  return count === 1 ? vscode.l10n.t('1 rule') : vscode.l10n.t('{0} rules', count);
}

/** The tree view passes its node; tests and keybindings pass `{name}` or the name itself. */
function ruleNameOf(argument: unknown): string | undefined {
  if (typeof argument === 'string') return stringArgument(argument);
  const args = argumentsOf<{ name: string; rule: QuotaRuleInfo }>(argument);
  return stringArgument(args?.name) ?? stringArgument(args?.rule?.name);
}

export class RuleCommands {
  /** Input kept after a failure, per command. */
  private createDraft: RuleDraft | undefined;
  private readonly editDrafts = new Map<string, RuleDraft>();

  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.listRules', (args?: unknown) => this.list(args)),
      vscode.commands.registerCommand('quotaState.createRule', (args?: unknown) => this.create(args)),
      vscode.commands.registerCommand('quotaState.editRule', (args?: unknown) => this.edit(args)),
      vscode.commands.registerCommand('quotaState.deleteRule', (args?: unknown) => this.delete(args)),
    ];
  }

  async list(args?: unknown): Promise<QuotaRuleInfo[] | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: listing rules…'), (client, signal) => client.listRules({ signal }));
    if (!result.ok) return undefined;
    const rules = result.value;
    this.context.log.info(`Rules on the server: ${rules.length ? rules.map(describeRule).join('; ') : 'none'}`);
    if (args !== undefined) return rules;
    if (rules.length === 0) {
      void this.context.notifier.info(vscode.l10n.t('The server has no quota rules yet. Create one with "Quota: Create Rule".'));
      return rules;
    }
    const picked = await vscode.window.showQuickPick(
      rules.map((rule) => ({
        label: rule.name ?? vscode.l10n.t('(unnamed)'),
        description: describeSize(rule.limit),
        detail: rule.subjects?.length ? rule.subjects.join(', ') : vscode.l10n.t('no subjects (applies to nothing)'),
        rule,
      })),
      { title: vscode.l10n.t('Quota rules ({0})', rules.length), matchOnDetail: true },
    );
    if (picked) {
      const action = await vscode.window.showQuickPick([EDIT, DELETE], { title: vscode.l10n.t('Rule "{0}"', picked.label) });
      if (action === EDIT) await this.edit({ rule: picked.rule, interactive: true });
      if (action === DELETE) await this.delete({ name: picked.rule.name });
    }
    return rules;
  }

  async create(args?: unknown): Promise<QuotaRuleInfo | undefined> {
    const given = argumentsOf<{ name: string; limit: number | string; subjects: string[] }>(args);
    let draft: RuleDraft;
    if (given && given.name !== undefined) {
      try {
        draft = {
          name: String(given.name),
          limit: limitFromArgument(given.limit),
          subjects: given.subjects === undefined ? [] : subjectsFromArgument(given.subjects),
        };
      } catch (error) {
        void this.context.notifier.error(vscode.l10n.t('Could not create the rule: {0}', error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    } else {
      const asked = await this.askRule(this.createDraft ?? {});
      if (!asked) return undefined;
      draft = asked;
    }
    const interactive = !(given && given.name !== undefined);
    const problem = nameProblem(draft.name ?? '', 'rule');
    if (problem) {
      void this.context.notifier.error(vscode.l10n.t('Could not create the rule: {0}', problem));
      return undefined;
    }
    const rule = { name: draft.name!, limit: draft.limit!, subjects: draft.subjects ?? [] };
    const result = await this.context.api.run(vscode.l10n.t('Quota: creating rule "{0}"…', rule.name), (client, signal) => client.createRule(rule, { signal }), {
      quiet: true,
    });
    if (!result.ok) {
      this.createDraft = draft;
      if (result.shown) return undefined;
      const offer = interactive ? retryChoice(result.error) : undefined;
      void (offer ? this.context.notifier.error(result.message, offer) : this.context.notifier.error(result.message)).then((choice) => {
        if (choice === RETRY) void this.create(draft);
        else if (choice === CHANGE_AND_RETRY) void this.create();
      });
      return undefined;
    }
    this.createDraft = undefined;
    void this.context.notifier.info(vscode.l10n.t('Created the rule {0}.', describeRule(result.value)));
    this.context.serverChanged();
    return result.value;
  }

  async edit(args?: unknown): Promise<QuotaRuleInfo | undefined> {
    const given = argumentsOf<{ name: string; limit: number | string; subjects: string[]; rule: QuotaRuleInfo; interactive: boolean }>(args);
    const name = ruleNameOf(args) ?? (await this.pickRuleName('Edit which rule?'));
    if (!name) return undefined;
    let change: { limit?: number; subjects?: string[] };
    const nonInteractive = given && !given.interactive && !given.rule && (given.limit !== undefined || given.subjects !== undefined);
    if (nonInteractive) {
      try {
        change = {};
        if (given.limit !== undefined) change.limit = limitFromArgument(given.limit);
        if (given.subjects !== undefined) change.subjects = subjectsFromArgument(given.subjects);
      } catch (error) {
        void this.context.notifier.error(vscode.l10n.t('Could not edit the rule "{0}": {1}', name, error instanceof Error ? error.message : String(error)));
        return undefined;
      }
    } else {
      let current = this.editDrafts.get(name) ?? given?.rule;
      if (!current) {
        const fetched = await this.context.api.run(vscode.l10n.t('Quota: reading rule "{0}"…', name), (client, signal) => client.getRule(name, { signal }));
        if (!fetched.ok) return undefined;
        current = fetched.value;
      }
      const limit = await askLimit(`Quota: limit of rule "${name}"`, current.limit);
      if (limit === undefined) return undefined;
      const subjects = await askSubjects(`Quota: subjects of rule "${name}"`, current.subjects ?? []);
      if (subjects === undefined) return undefined;
      change = { limit, subjects };
    }
    const result = await this.context.api.run(vscode.l10n.t('Quota: editing rule "{0}"…', name), (client, signal) => client.editRule(name, change, { signal }), {
      quiet: true,
    });
    if (!result.ok) {
      this.editDrafts.set(name, { name, ...change });
      if (result.shown) return undefined;
      const offer = nonInteractive ? undefined : retryChoice(result.error);
      void (offer ? this.context.notifier.error(result.message, offer) : this.context.notifier.error(result.message)).then((choice) => {
        if (choice === RETRY) void this.edit({ name, ...change });
        else if (choice === CHANGE_AND_RETRY) void this.edit({ name, interactive: true });
      });
      return undefined;
    }
    this.editDrafts.delete(name);
    void this.context.notifier.info(vscode.l10n.t('Changed the rule {0}.', describeRule(result.value)));
    this.context.serverChanged();
    return result.value;
  }

  async delete(args?: unknown): Promise<boolean> {
    const name = ruleNameOf(args) ?? (await this.pickRuleName('Delete which rule?'));
    if (!name) return false;
    const confirmed =
      argumentsOf<{ confirm: boolean }>(args)?.confirm === true ||
      (await vscode.window.showWarningMessage(vscode.l10n.t('Delete the quota rule "{0}"? It is also removed from every group that uses it.', name), { modal: true }, DELETE)) === DELETE;
    if (!confirmed) return false;
    const result = await this.context.api.run(vscode.l10n.t('Quota: deleting rule "{0}"…', name), (client, signal) => client.deleteRule(name, { signal }));
    if (!result.ok) return false;
    void this.context.notifier.info(vscode.l10n.t('Deleted the rule "{0}".', name));
    this.context.serverChanged();
    return true;
  }

  private async askRule(start: RuleDraft): Promise<RuleDraft | undefined> {
    // One list request, started before the prompt: a duplicate name is refused while typing,
    // not by the server after the last step. Non-administrators cannot list (403): no check then.
    const existing = this.existingRuleNames();
    const name = await askName('rule', start.name, async (value) => {
      const names = await existing;
      return names.has(value.trim()) ? `A rule named "${value.trim()}" already exists on the server; choose another name or edit that rule.` : undefined;
    });
    if (name === undefined) return undefined;
    const limit = await askLimit(`Quota: limit of rule "${name}"`, start.limit);
    if (limit === undefined) return undefined;
    const subjects = await askSubjects(`Quota: subjects of rule "${name}"`, start.subjects ?? []);
    if (subjects === undefined) return undefined;
    return { name, limit, subjects };
  }

  private async existingRuleNames(): Promise<Set<string>> {
    const connection = await this.context.api.connect({ requireToken: true });
    if (!connection.ok) return new Set();
    try {
      const rules = await connection.value.client.listRules();
      return new Set(rules.map((rule) => rule.name ?? '').filter(Boolean));
    } catch (error) {
      this.context.log.warn(`Create Rule: the name is not checked while typing (${error instanceof Error ? error.message : String(error)}).`);
      return new Set();
    }
  }

  private async pickRuleName(title: string): Promise<string | undefined> {
    const result = await this.context.api.run(vscode.l10n.t('Quota: listing rules…'), (client, signal) => client.listRules({ signal }));
    if (!result.ok) return undefined;
    const picked = await vscode.window.showQuickPick(
      result.value.map((rule) => ({ label: rule.name ?? '', description: describeRule(rule) })),
      { title },
    );
    return picked?.label;
  }
}
