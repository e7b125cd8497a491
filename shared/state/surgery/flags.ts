/**
 * `pulumi state protect|unprotect|taint|untaint` (pkg/cmd/pulumi/state/state_{protect,unprotect,taint,untaint}.go):
 * set or clear one flag on the named records, or on every record (`--all`; taint has none).
 * Records pending deletion are never eligible. Pulumi omits a false flag, so clearing removes the member.
 * Any unknown urn refuses the whole edit, every unknown urn listed.
 */
import * as l10n from '@vscode/l10n';
import type { JsonObject } from '../model/structure';
import type { SurgeryInput } from './document';
import { finish, openForOperation, refused, type SurgeryChange, type SurgeryOutcome } from './outcome';
import type { PlannedRecord } from './render';
import { resolveTarget, TargetError } from './targets';

export type FlagOperation = 'protect' | 'unprotect' | 'taint' | 'untaint';

const FLAG: Record<FlagOperation, { field: 'protect' | 'taint'; set: boolean; action: SurgeryChange['action'] }> = {
  protect: { field: 'protect', set: true, action: 'protected' },
  unprotect: { field: 'protect', set: false, action: 'unprotected' },
  taint: { field: 'taint', set: true, action: 'tainted' },
  untaint: { field: 'taint', set: false, action: 'untainted' },
};

/** Pulumi's summary line: every argument it found is counted, changed or not, and the noun stays plural. */
function summary(operation: FlagOperation, all: boolean, count: number): string {
  switch (operation) {
    case 'protect':
      return all ? l10n.t('All resources protected') : l10n.t('{0} resources protected', count);
    case 'unprotect':
      return all ? l10n.t('All resources unprotected') : l10n.t('{0} resources unprotected', count);
    case 'taint':
      return all ? l10n.t('All resources tainted') : l10n.t('{0} resources tainted', count);
    case 'untaint':
      return all ? l10n.t('All resources untainted') : l10n.t('{0} resources untainted', count);
  }
}

export function setFlag(input: SurgeryInput, operation: FlagOperation, targets: readonly string[], options: { all?: boolean; verify?: boolean } = {}): SurgeryOutcome {
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const { field, set, action } = FLAG[operation];
  const records = doc.records;
  if (options.all && operation === 'taint') return refused(doc, operation, [l10n.t('{0} takes no {1}', 'taint', '--all')]);
  if (options.all && targets.length) return refused(doc, operation, [l10n.t('cannot specify a resource URN together with {0}', '--all')]);
  if (!options.all && targets.length === 0) return refused(doc, operation, [l10n.t('Must supply {0} unless pulumi is run interactively', '<resource URN>')]);
  const eligible = (record: JsonObject) => record.delete !== true;
  let chosen: number[];
  if (options.all) chosen = records.map((_, i) => i).filter((i) => eligible(records[i]));
  else {
    const errors: string[] = [];
    chosen = [];
    for (const arg of targets) {
      try {
        const { index } = resolveTarget(records, arg, {
          eligible,
          pick: 'last',
          ineligibleReason: (target) => l10n.t('{0} is pending deletion ({1}); Pulumi does not {2} such records', target, '"delete": true', operation),
        });
        chosen.push(index);
      } catch (error) {
        if (!(error instanceof TargetError)) throw error;
        errors.push(error.message);
      }
    }
    if (errors.length) return refused(doc, operation, errors);
  }
  const unique = [...new Set(chosen)];
  const next = new Map<number, JsonObject>();
  const changes: SurgeryChange[] = [];
  for (const index of unique) {
    const record = records[index];
    const isSet = record[field] === true;
    if (isSet === set) continue;
    const value: JsonObject = { ...record };
    if (set) value[field] = true;
    else delete value[field];
    next.set(index, value);
    if (isSet !== set) changes.push({ urn: record.urn as string, index, action });
  }
  const plan: PlannedRecord[] = records.map((value, from) => ({ from, value: next.get(from) ?? value }));
  const message = summary(operation, options.all === true, chosen.length);
  const notes = operation === 'protect' ? [l10n.t("If the program does not set the '{0}' option too, the next `pulumi up` unprotects the resource again.", 'protect')] : [];
  return finish(doc, operation, { records: plan }, { message, changes, notes }, { verify: options.verify });
}
