/**
 * `protected-pending-delete`: a record pending deletion (`delete: true`) that is also protected. The
 * next update deletes it anyway, because Pulumi deletes a replaced copy without the protect check
 * (DeleteStep.Apply skips it for replacements) and `pulumi state protect` never marks a copy pending
 * deletion, so the flag protects nothing and a reader trusting it is misled.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { isObject } from '../model/structure';
import { resourceLabel, type StateFinding } from '../passes/findings';
import { located, removalEdit } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    const record = resource.value;
    if (!isObject(record) || record.protect !== true || record.delete !== true) continue;
    const path = [...resource.path, 'protect'];
    out.push({
      code: 'protected-pending-delete',
      message: l10n.t(
        'Resource {0} is pending deletion, so the next update deletes it even though it is protected: Pulumi does not check "protect" when it deletes a replaced copy',
        resourceLabel(resource),
      ),
      at: { path, part: 'key' },
      data: { path },
    });
  }
  return out;
}

/** A copy pending deletion loses the protect flag Pulumi ignores for it. */
function unprotectPendingDeleteFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const node = located(analysis, data);
  return node ? [{ title: l10n.t('Remove {0} (the pending deletion happens regardless)', '"protect": true'), edits: [removalEdit(analysis.text, node)], preferred: true }] : [];
}

export const protectedPendingDelete: StateRule = {
  code: 'protected-pending-delete',
  doc: 'A resource pending deletion is also protected: the next update deletes it anyway, since Pulumi does not check protect when deleting a replaced copy.',
  check,
  fix: unprotectPendingDeleteFix,
};
