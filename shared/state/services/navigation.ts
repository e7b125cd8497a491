/** Urn navigation: definitions, references, the dependents of a resource, and rename. */
import type { Span } from '../../diagnostics';
import type { TextEdit } from '../../edits';
import { isObject } from '../model/structure';
import type { StateDocument } from './context';

/** Where the urn under `offset` is defined (every copy, for a duplicated urn). */
export function stateDefinition({ navigation }: StateDocument, offset: number): Span[] | null {
  const occurrence = navigation.occurrenceAt(offset);
  if (!occurrence) return null;
  return navigation.definitions(occurrence.urn).map((d) => d.span);
}

/** Where the records depending on `urn` refer to it, in file order (what the dependents lens counts). */
export function stateDependents({ navigation }: StateDocument, urn: string): Span[] {
  return navigation
    .references(urn)
    .filter((o) => o.kind !== 'alias')
    .map((o) => o.span);
}

export function stateReferences({ navigation }: StateDocument, offset: number, includeDeclaration: boolean): Span[] | null {
  const occurrence = navigation.occurrenceAt(offset);
  if (!occurrence) return null;
  const found = [...(includeDeclaration ? navigation.definitions(occurrence.urn) : []), ...navigation.references(occurrence.urn)];
  found.sort((a, b) => a.span.offset - b.span.offset);
  return found.map((o) => o.span);
}

export function statePrepareRename({ navigation }: StateDocument, offset: number): { span: Span; placeholder: string } | null {
  const occurrence = navigation.occurrenceAt(offset);
  if (!occurrence) return null;
  return { span: occurrence.span, placeholder: occurrence.urn };
}

/**
 * The edits renaming the urn under `offset` everywhere it occurs. An occurrence spelt without
 * escapes is replaced in place; a literal with escapes is rewritten whole, keeping a provider
 * reference's `::id`.
 */
export function stateRename({ snapshot, navigation }: StateDocument, offset: number, newName: string): TextEdit[] | null {
  const occurrence = navigation.occurrenceAt(offset);
  if (!occurrence) return null;
  const escaped = JSON.stringify(newName).slice(1, -1);
  const all = [...navigation.definitions(occurrence.urn), ...navigation.references(occurrence.urn)];
  return all.map((o): TextEdit => {
    if (o.span.length === occurrence.urn.length) return { ...o.span, newText: escaped };
    const value = o.kind === 'provider' ? `${newName}${providerIdSuffix(snapshot, o.resource)}` : newName;
    return { offset: o.literal.offset, length: o.literal.length, newText: JSON.stringify(value) };
  });
}

function providerIdSuffix(snapshot: StateDocument['snapshot'], resource: number): string {
  const value = snapshot.structure.resources[resource]?.value;
  const reference = isObject(value) && typeof value.provider === 'string' ? value.provider : '';
  const separator = reference.lastIndexOf('::');
  return separator === -1 ? '' : reference.slice(separator);
}
