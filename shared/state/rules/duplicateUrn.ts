/** `duplicate-urn`: a urn more than one live copy has (Pulumi allows only one copy besides those pending deletion). */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest, TextEdit } from '../../edits';
import type { JsonPath } from '../model/locate';
import type { StateSnapshot } from '../model/snapshot';
import { definitionAnchor, resourceAnchor, type StateFinding } from '../passes/findings';
import { insertFirstMemberEdit, locate, pathOf, replaceValue } from '../passes/fixes';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  if (integrity.isolated) return [];
  const resources = structure.resources;
  const out: StateFinding[] = [];
  for (const [urn, copies] of integrity.byUrn) {
    if (copies.length < 2 || urn === '') continue;
    const live = copies.filter((i) => !resources[i].deleted);
    if (live.length <= 1) continue;
    const first = live[0];
    for (const index of live.slice(1)) {
      const resource = resources[index];
      out.push({
        code: 'duplicate-urn',
        message: l10n.t('Duplicate resource {0} (not marked for deletion); it is also defined at index {1}', urn, first),
        at: resourceAnchor(resource.path, true),
        related: [{ at: definitionAnchor(resources, first), message: l10n.t('First definition of {0}', urn) }],
        data: { path: resource.path, urn },
      });
    }
  }
  return out;
}

/** A second copy of a urn becomes the pending deletion Pulumi allows beside the live copy. */
function markDuplicateDeletedFix(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const path = pathOf(data);
  const edit = path && markDeletedEdit(analysis, path);
  return edit ? [{ title: l10n.t('Mark this duplicate {0}', '"delete": true'), edits: [edit], preferred: true }] : [];
}

/** `"delete": true` as the record's first member, indented like its first existing member. */
function markDeletedEdit(analysis: StateSnapshot, resourcePath: JsonPath): TextEdit | undefined {
  const existing = locate(analysis, [...resourcePath, 'delete']);
  if (existing) return replaceValue(existing, true);
  return insertFirstMemberEdit(analysis, resourcePath, 'delete', true);
}

export const duplicateUrn: StateRule = {
  code: 'duplicate-urn',
  doc: 'The same urn appears more than once and not all but one copy are marked delete.',
  check,
  fix: markDuplicateDeletedFix,
};
