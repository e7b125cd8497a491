/**
 * A record pending deletion (`delete: true`) that is also protected: the next update deletes it
 * anyway, because Pulumi deletes a replaced copy without the protect check (DeleteStep.Apply skips
 * it for replacements) and `pulumi state protect` never marks a copy pending deletion, so the flag
 * protects nothing and a reader trusting it is misled.
 */
import * as l10n from '@vscode/l10n';
import { isObject, type StateStructure } from '../model/structure';
import type { StateFinding } from './findings';

export function protectedPendingDelete(structure: StateStructure): StateFinding[] {
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    const record = resource.value;
    if (!isObject(record) || record.protect !== true || record.delete !== true) continue;
    const path = [...resource.path, 'protect'];
    out.push({
      code: 'protected-pending-delete',
      message: l10n.t(
        'Resource {0} is pending deletion, so the next update deletes it even though it is protected: Pulumi does not check "protect" when it deletes a replaced copy',
        resource.urn ?? l10n.t('at index {0}', resource.index),
      ),
      at: { path, part: 'key' },
      data: { path },
    });
  }
  return out;
}
