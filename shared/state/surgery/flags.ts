/**
 * `pulumi state protect|unprotect|taint|untaint` (pkg/cmd/pulumi/state/state_{protect,unprotect,taint,untaint}.go):
 * set or clear one flag on the named records, or on every record (`--all`; taint has none).
 * Records pending deletion are never eligible. Pulumi omits a false flag, so clearing removes the member.
 * Any unknown urn refuses the whole edit, every unknown urn listed.
 */
import type { JsonObject } from '../model/structure';
import type { EditableState } from './document';
import { finish, openForOperation, refused, type SurgeryChange, type SurgeryOutcome } from './outcome';
import type { PlannedRecord } from './render';
import { resolveTarget, TargetError } from './targets';

export type FlagOperation = 'protect' | 'unprotect' | 'taint' | 'untaint';

const FLAG: Record<FlagOperation, { field: 'protect' | 'taint'; set: boolean; past: string; action: SurgeryChange['action'] }> = {
  protect: { field: 'protect', set: true, past: 'protected', action: 'protected' },
  unprotect: { field: 'protect', set: false, past: 'unprotected', action: 'unprotected' },
  taint: { field: 'taint', set: true, past: 'tainted', action: 'tainted' },
  untaint: { field: 'taint', set: false, past: 'untainted', action: 'untainted' },
};

export function setFlag(input: string | EditableState, operation: FlagOperation, targets: readonly string[], options: { all?: boolean; verify?: boolean } = {}): SurgeryOutcome {
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const { field, set, past, action } = FLAG[operation];
  const records = doc.records;
  if (options.all && operation === 'taint') return refused(doc, operation, ['taint takes no --all']);
  if (options.all && targets.length) return refused(doc, operation, ['cannot specify a resource URN together with --all']);
  if (!options.all && targets.length === 0) return refused(doc, operation, ['Must supply <resource URN> unless pulumi is run interactively']);
  const eligible = (record: JsonObject) => record.delete !== true;
  let chosen: number[];
  if (options.all) chosen = records.map((_, i) => i).filter((i) => eligible(records[i]));
  else {
    const errors: string[] = [];
    chosen = [];
    for (const arg of targets) {
      try {
        const { index } = resolveTarget(records, arg, { eligible, pick: 'last', ineligibleReason: `is pending deletion ("delete": true); Pulumi does not ${operation} such records` });
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
  // Pulumi counts every argument it found, changed or not.
  const message = options.all ? `All resources ${past}` : `${chosen.length} resources ${past}`;
  const notes = operation === 'protect' ? ["If the program does not set the 'protect' option too, the next `pulumi up` unprotects the resource again."] : [];
  return finish(doc, operation, { records: plan }, { message, changes, notes }, { verify: options.verify });
}
