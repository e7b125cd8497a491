/**
 * Completion of urns in reference fields (parent, dependencies, propertyDependencies, deletedWith,
 * replaceWith, aliases) and of `urn::id` provider references in `provider`.
 */
import { getLocation } from 'jsonc-parser';
import type { Range } from '../../diagnostics';
import type { CompletionEntry } from '../../features';
import { limitNesting } from '../../json/nesting';
import { isObject } from '../model/structure';
import { isProviderType, UNKNOWN_ID } from '../model/urn';
import type { StateDocument } from './context';

const REFERENCE_FIELDS = new Set(['parent', 'dependencies', 'propertyDependencies', 'deletedWith', 'replaceWith', 'aliases']);

export function stateCompletion({ snapshot, navigation }: StateDocument, offset: number): CompletionEntry[] | null {
  const index = navigation.recordAt(offset);
  const span = index !== undefined ? navigation.recordSpan(index) : { offset: 0, length: snapshot.text.length };
  if (!span) return null;
  const slice = snapshot.text.slice(span.offset, span.offset + span.length);
  // jsonc-parser's getLocation recurses per level: read the slice with deep containers blanked.
  const location = getLocation(limitNesting(slice).text, offset - span.offset);
  if (location.isAtPropertyKey) return null;
  const field = location.path[0];
  const typing = location.previousNode?.type === 'string' ? location.previousNode : undefined;
  const replace: Range | undefined = typing ? snapshot.lines.rangeOf({ offset: span.offset + typing.offset, length: typing.length }) : undefined;
  const item = (label: string, value: string, detail: string | undefined): CompletionEntry => ({
    label,
    kind: 'reference',
    detail,
    filterText: JSON.stringify(value),
    ...(replace ? { textEdit: { range: replace, newText: JSON.stringify(value) } } : { insertText: JSON.stringify(value) }),
  });
  const resources = snapshot.structure.resources;
  const own = index !== undefined ? resources[index]?.urn : undefined;
  if (field === 'provider') {
    return resources
      .filter((r) => r.urn && r.type && isProviderType(r.type))
      .map((r) => {
        const id = isObject(r.value) && typeof r.value.id === 'string' && r.value.id !== '' ? r.value.id : UNKNOWN_ID;
        return item(`${r.urn}::${id}`, `${r.urn}::${id}`, r.type);
      });
  }
  if (typeof field !== 'string' || !REFERENCE_FIELDS.has(field)) return null;
  if (field === 'propertyDependencies' && location.path.length < 2) return null;
  const items: CompletionEntry[] = [];
  for (const [urn, definitions] of navigation.definedUrns()) {
    if (urn === own) continue;
    items.push(item(urn, urn, resources[definitions[0]]?.type));
  }
  return items;
}
