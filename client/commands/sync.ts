/**
 * Push Quota File to Server (plan → confirm → apply with progress → per-item report) and
 * Pull Server Rules into a quota file. `{uri, confirm: true}` runs a push without prompts.
 */
import * as vscode from 'vscode';
import type { QuotaApiClient } from '../../shared/api/client';
import { QuotaApiError } from '../../shared/api/errors';
import type { QuotaModel } from '../../shared/quota/vocabulary';
import { describeStep, planPush, pullIntoText, unpushableSettings, type PlanStep, type ServerQuotaState } from '../quotaPlan';
import { quotaFileReader } from '../quotaFile';
import { argumentsOf, stringArgument, type CommandContext } from './context';

const APPLY = vscode.l10n.t('Apply');

export interface StepResult {
  step: string;
  ok: boolean;
  message?: string;
}

async function documentFrom(args: unknown): Promise<vscode.TextDocument | undefined> {
  const uri = stringArgument(argumentsOf<{ uri: string }>(args)?.uri);
  if (uri) return vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
  return vscode.window.activeTextEditor?.document;
}

function applyStep(client: QuotaApiClient, step: PlanStep, signal: AbortSignal): Promise<unknown> {
  switch (step.action) {
    case 'create-rule':
      return client.createRule(step.rule, { signal });
    case 'update-rule':
      return client.editRule(step.rule.name, { limit: step.rule.limit, subjects: step.rule.subjects }, { signal });
    case 'create-group':
      return client.createGroup({ name: step.group }, { signal });
    case 'add-rule-to-group':
      return client.addRuleToGroup(step.group, step.rule, { signal });
    case 'remove-rule-from-group':
      return client.removeRuleFromGroup(step.group, step.rule, { signal });
    case 'set-user-groups':
      return client.setUserGroups(step.user, step.groups, { signal });
    case 'delete-group':
      return client.deleteGroup(step.group, { signal });
    case 'delete-rule':
      return client.deleteRule(step.rule, { signal });
  }
}

export class SyncCommands {
  constructor(private readonly context: CommandContext) {}

  register(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand('quotaState.pushQuotaFile', (args?: unknown) => this.push(args)),
      vscode.commands.registerCommand('quotaState.pullServerRules', (args?: unknown) => this.pull(args)),
    ];
  }

  async push(args?: unknown): Promise<{ plan: string[]; results: StepResult[] } | undefined> {
    const pushable = await this.pushableFile(args);
    if (!pushable) return undefined;
    const { fileName, model } = pushable;
    const planned = await this.planPush(fileName, model);
    if (!planned) return undefined;
    const { steps, server } = planned;
    const plan = steps.map(describeStep);
    for (const note of unpushableSettings(model)) this.context.log.info(note);
    if (steps.length === 0) {
      void this.context.notifier.info(vscode.l10n.t('{0} already matches {1}: nothing to push.', server, fileName));
      return { plan, results: [] };
    }
    this.context.log.info(`Push plan for ${fileName} → ${server}:\n${plan.map((line) => `  - ${line}`).join('\n')}`);
    const confirmed =
      argumentsOf<{ confirm: boolean }>(args)?.confirm === true ||
      (await vscode.window.showWarningMessage(
        steps.length === 1 ? vscode.l10n.t('Apply 1 change to {0}?', server) : vscode.l10n.t('Apply {0} changes to {1}?', steps.length, server),
        { modal: true, detail: plan.map((line) => `• ${line}`).join('\n') },
        APPLY,
      )) === APPLY;
    if (!confirmed) return { plan, results: [] };
    const results = await this.applyPlan(fileName, steps, plan);
    this.context.serverChanged();
    if (!results) return { plan, results: [] };
    this.reportPush(fileName, server, results);
    return { plan, results };
  }

  /** The document to push and its model; undefined, with the reason shown, when it cannot be pushed. */
  private async pushableFile(args: unknown) {
    const document = await documentFrom(args);
    if (!document) {
      void this.context.notifier.error(vscode.l10n.t('Open a quota file (or pass its uri) to push it to the server.'));
      return undefined;
    }
    const fileName = vscode.workspace.asRelativePath(document.uri);
    const summary = await quotaFileReader(this.context.languageClient)(document.uri);
    if (!summary) {
      void this.context.notifier.error(vscode.l10n.t('Could not push {0}: the language server could not read it (see the Quota & State output).', fileName));
      return undefined;
    }
    const { errors, model } = summary;
    if (errors.length) {
      void this.context.notifier.error(
        errors.length === 1
          ? vscode.l10n.t('Could not push {0}: it has 1 error (first: line {1}: {2}). Fix them first.', fileName, errors[0].line + 1, errors[0].message)
          : vscode.l10n.t('Could not push {0}: it has {1} errors (first: line {2}: {3}). Fix them first.', fileName, errors.length, errors[0].line + 1, errors[0].message),
      );
      return undefined;
    }
    return { fileName, model };
  }

  /** The steps that make the server match the file, from the server's rules, groups and the file's accounts' groups. */
  private async planPush(fileName: string, model: QuotaModel): Promise<{ steps: PlanStep[]; server: string } | undefined> {
    const planned = await this.context.api.run(vscode.l10n.t('Quota: comparing {0} with the server…', fileName), async (client, signal) => {
      const [rules, groups] = await Promise.all([client.listRules({ signal }), client.listGroups({ signal })]);
      const accountGroups: ServerQuotaState['accountGroups'] = {};
      for (const user of Object.keys(model.assignments)) {
        try {
          const quota = await client.userQuota(user, { signal });
          accountGroups[user] = quota.groups.map((group) => group.name ?? '').filter(Boolean);
        } catch (error) {
          // An account the server does not know: the step will fail and be reported.
          if (!(error instanceof QuotaApiError && error.kind === 'not-found')) throw error;
          accountGroups[user] = [];
        }
      }
      return { steps: planPush(model, { rules, groups, accountGroups }), server: client.baseUrl };
    });
    return planned.ok ? planned.value : undefined;
  }

  /** Applies the steps in order with progress; a failed step is reported and the next one still runs. */
  private async applyPlan(fileName: string, steps: PlanStep[], plan: string[]): Promise<StepResult[] | undefined> {
    const applied = await this.context.api.run(vscode.l10n.t('Quota: pushing {0}…', fileName), async (client, signal, progress) => {
      const results: StepResult[] = [];
      for (const [index, step] of steps.entries()) {
        const description = plan[index];
        progress.report({ message: `${index + 1}/${steps.length}: ${description}`, increment: 100 / steps.length });
        try {
          await applyStep(client, step, signal);
          results.push({ step: description, ok: true });
        } catch (error) {
          if (error instanceof QuotaApiError && error.kind === 'cancelled') throw error;
          results.push({ step: description, ok: false, message: error instanceof Error ? error.message : String(error) });
        }
      }
      return results;
    });
    return applied.ok ? applied.value : undefined;
  }

  private reportPush(fileName: string, server: string, results: StepResult[]): void {
    const failed = results.filter((r) => !r.ok);
    this.context.log.info(`Push report:\n${results.map((r) => `  ${r.ok ? 'done' : 'FAILED'}: ${r.step}${r.message ? ` — ${r.message}` : ''}`).join('\n')}`);
    if (failed.length === 0) {
      void this.context.notifier.info(
        results.length === 1 ? vscode.l10n.t('Pushed {0} to {1}: 1 change applied.', fileName, server) : vscode.l10n.t('Pushed {0} to {1}: {2} changes applied.', fileName, server, results.length),
      );
    } else {
      void this.context.notifier.error(
        vscode.l10n.t(
          'Pushed {0} to {1}: {2} of {3} changes applied; failed: {4}',
          fileName,
          server,
          results.length - failed.length,
          results.length,
          failed.map((r) => `${r.step} (${r.message})`).join('; '),
        ),
      );
    }
  }

  /** Replaces the file's `rules` and `groups` with the server's (comments and other properties kept). */
  async pull(args?: unknown): Promise<string | undefined> {
    const fetched = await this.context.api.run(vscode.l10n.t("Quota: reading the server's rules and groups…"), async (client, signal) => ({
      rules: await client.listRules({ signal }),
      groups: await client.listGroups({ signal }),
      server: client.baseUrl,
    }));
    if (!fetched.ok) return undefined;
    const { rules, groups, server } = fetched.value;
    let document = await documentFrom(args);
    if (!document) document = await vscode.workspace.openTextDocument({ language: 'jsonc', content: '{\n  "enabled": true\n}\n' });
    const text = pullIntoText(document.getText(), rules, groups);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), text);
    if (!(await vscode.workspace.applyEdit(edit))) {
      void this.context.notifier.error(vscode.l10n.t("Could not write the server's rules into {0}.", vscode.workspace.asRelativePath(document.uri)));
      return undefined;
    }
    await vscode.window.showTextDocument(document);
    void this.context.notifier.info(pulledMessage(rules.length, groups.length, server, vscode.workspace.asRelativePath(document.uri)));
    return text;
  }
}

/** What a pull brought, one sentence per combination of one and many (a translation words each its own way). */
function pulledMessage(rules: number, groups: number, server: string, file: string): string {
  if (rules === 1 && groups === 1) return vscode.l10n.t('Pulled 1 rule and 1 group from {0} into {1} (not saved yet). Assignments are not listed by the API and were left as they were.', server, file);
  if (rules === 1) return vscode.l10n.t('Pulled 1 rule and {0} groups from {1} into {2} (not saved yet). Assignments are not listed by the API and were left as they were.', groups, server, file);
  if (groups === 1) return vscode.l10n.t('Pulled {0} rules and 1 group from {1} into {2} (not saved yet). Assignments are not listed by the API and were left as they were.', rules, server, file);
  return vscode.l10n.t('Pulled {0} rules and {1} groups from {2} into {3} (not saved yet). Assignments are not listed by the API and were left as they were.', rules, groups, server, file);
}
