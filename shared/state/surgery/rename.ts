/**
 * `pulumi state rename <urn> <new-name>` (pkg/cmd/pulumi/state/state_rename.go `stateReurnOperation`):
 * the second argument is a name, not a urn (Pulumi #11746). The record gets the new urn; every
 * parent, dependency, property dependency, deletedWith and replaceWith naming the old urn is
 * rewritten; children are re-urned from their new parent's type chain, recursively; when the record
 * is a provider, every provider reference to it becomes `<new urn>::<its id>`. Aliases, resource
 * references in property values and pending operations are left as Pulumi leaves them.
 *
 * Deviations (named in test/state/surgery.test.ts): Pulumi appends the rewritten `replaceWith`
 * list onto the old one (`append(existingResource.ReplaceWith, …)`), doubling every replaceWith
 * list of the file on each re-urn and keeping the old urn; we rewrite the list in place. Pulumi
 * refuses a rename when a child has several records with one urn ("ambiguously refers"); we rename
 * every copy.
 */
import * as l10n from '@vscode/l10n';
import { isObject, type JsonObject } from '../model/structure';
import { isProviderType } from '../model/urn';
import { providerRef, str, type SurgeryInput } from './document';
import { finish, openForOperation, refused, type SurgeryChange, type SurgeryOutcome } from './outcome';
import { ambiguousMessage, isValidUrn, resolveTarget, TargetError } from './targets';

/** Pulumi's urn components (`getComponent`): stack, project, qualified type, then the name (the rest). */
export function urnParts(urn: string): { stack: string; project: string; qualifiedType: string; type: string; name: string } {
  const body = urn.slice('urn:pulumi:'.length);
  const parts = body.split('::');
  const qualifiedType = parts[2] ?? '';
  return { stack: parts[0] ?? '', project: parts[1] ?? '', qualifiedType, type: qualifiedType.slice(qualifiedType.lastIndexOf('$') + 1), name: parts.slice(3).join('::') };
}

/** `urn.New`: the parent type prefixes the type unless it is empty or the root stack's. */
export function newUrn(stack: string, project: string, parentType: string, baseType: string, name: string): string {
  const type = parentType !== '' && parentType !== 'pulumi:pulumi:Stack' ? `${parentType}$${baseType}` : baseType;
  return `urn:pulumi:${stack}::${project}::${type}::${name}`;
}

/** Pulumi's refusal of a new urn another record has. */
const alreadyExisting = () => l10n.t('The chosen new urn for the state corresponds to an already existing resource');

export function renameResource(input: SurgeryInput, arg: string, newName: string, options: { verify?: boolean } = {}): SurgeryOutcome {
  const operation = 'rename';
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const records = doc.records;
  const misuse = argumentsRefusal(arg, newName);
  if (misuse !== undefined) return refused(doc, operation, [misuse]);
  const target = resolveRenameTarget(records, arg);
  if (typeof target === 'string') return refused(doc, operation, [target]);
  const oldUrn = records[target].urn as string;
  const parts = urnParts(oldUrn);
  const renamed = newUrn(parts.stack, parts.project, '', parts.qualifiedType, newName);
  if (renamed !== oldUrn && records.some((r) => r.urn === renamed)) {
    return refused(doc, operation, [alreadyExisting()]);
  }
  const reurning = startReurn(records);
  if (renamed !== oldUrn) reurn(reurning, target, oldUrn, renamed, 0);
  if (reurning.errors.length) return refused(doc, operation, reurning.errors);
  return finish(
    doc,
    operation,
    { records: reurning.values.map((value, from) => ({ from, value })) },
    { message: l10n.t('Resource renamed'), changes: reurning.changes, notes: renameNotes(records) },
    { verify: options.verify, renamed: reurning.urnMap },
  );
}

/** The target must be a urn and the new name a non-empty name. */
function argumentsRefusal(arg: string, newName: string): string | undefined {
  const plainUrn = arg.replace(/#[1-9][0-9]*$/, '');
  if (!isValidUrn(arg) && !isValidUrn(plainUrn)) return l10n.t('The provided input URN is not valid');
  if (newName === '') return l10n.t('The new name must not be empty');
  // Pulumi takes a urn here as a name and writes a urn nobody can rename back (Pulumi #11746).
  if (newName.startsWith('urn:pulumi:')) {
    const name = newName.split('::').slice(3).join('::');
    return name ? l10n.t('{0} is a name, not a URN (Pulumi #11746): did you mean "{1}"?', 'NEW-NAME', name) : l10n.t('{0} is a name, not a URN (Pulumi #11746)', 'NEW-NAME');
  }
  return undefined;
}

/** The target's index, or why it cannot be chosen. */
function resolveRenameTarget(records: readonly JsonObject[], arg: string): number | string {
  try {
    return resolveTarget(records, arg, { pick: 'refuse' }).index;
  } catch (error) {
    if (!(error instanceof TargetError)) throw error;
    // Pulumi's rename words the ambiguity its own way.
    return error.copies ? ambiguousMessage(error.copies, l10n.t('The input URN ambiguously refers to multiple resources:')) : error.message;
  }
}

function renameNotes(records: readonly JsonObject[]): string[] {
  return [
    l10n.t('Aliases, resource references in property values and pending operations are left as they are, as Pulumi leaves them.'),
    ...(records.some((r) => Array.isArray(r.replaceWith) && r.replaceWith.length > 0)
      ? [l10n.t('{0} lists are rewritten in place; Pulumi 3.274.1 appends the rewritten list to the old one, duplicating its entries.', 'replaceWith')]
      : []),
  ];
}

/** A re-urn in progress: copy-on-write values over the records, and what changed. */
interface Reurning {
  records: readonly JsonObject[];
  values: JsonObject[];
  /** The record `i`'s value, copied before its first change. */
  edit: (i: number) => JsonObject;
  changes: SurgeryChange[];
  urnMap: Map<string, string>;
  errors: string[];
}

function startReurn(records: readonly JsonObject[]): Reurning {
  const values = records.slice();
  const edit = (i: number): JsonObject => {
    if (values[i] === records[i]) values[i] = { ...records[i] };
    return values[i];
  };
  return { records, values, edit, changes: [], urnMap: new Map(), errors: [] };
}

/** Gives record `index` the urn `to` and rewrites what refers to it (`stateReurnOperation`). */
function reurn(reurning: Reurning, index: number, from: string, to: string, depth: number): void {
  if (depth > 1000) throw new Error('parent chain too deep');
  const { records, values, edit } = reurning;
  edit(index).urn = to;
  reurning.urnMap.set(from, to);
  reurning.changes.push({ urn: from, index, action: 'renamed', newUrn: to, detail: depth ? l10n.t('child re-urned under its renamed parent') : undefined });
  // With several records of the old urn, a reference resolves to the copy of the same kind (live or pending deletion).
  const copies = records.filter((r, i) => i !== index && r.urn === from).length;
  const deleted = records[index].delete === true;
  const refersHere = (j: number) => copies === 0 || (values[j].delete === true) === deleted;
  for (let j = 0; j < values.length; j++) {
    if (j === index || !refersHere(j)) continue;
    if (values[j].parent === from) reparent(reurning, j, to, depth);
    rewriteReferences(values, j, from, to, edit);
  }
  if (isProviderType(str(records[index], 'type'))) repointProviderReferences(reurning, index, from, to);
}

/** Record `j`'s parent became `to`: it is re-urned from its new parent's type chain, unless that urn is taken. */
function reparent(reurning: Reurning, j: number, to: string, depth: number): void {
  const record = reurning.values[j];
  reurning.edit(j).parent = to;
  const child = urnParts(record.urn as string);
  const childUrn = newUrn(child.stack, child.project, urnParts(to).qualifiedType, child.type, child.name);
  if (childUrn === record.urn) return;
  if (reurning.records.some((r) => r.urn === childUrn)) reurning.errors.push(l10n.t('failed to update {0} with new parent {1}: {2}', String(record.urn), to, alreadyExisting()));
  else reurn(reurning, j, record.urn as string, childUrn, depth + 1);
}

/** The renamed record is a provider: every reference to it becomes `<new urn>::<its id>`. */
function repointProviderReferences(reurning: Reurning, index: number, from: string, to: string): void {
  const { values, edit } = reurning;
  const reference = `${to}::${str(reurning.records[index], 'id')}`;
  for (let j = 0; j < values.length; j++) {
    if (!str(values[j], 'provider')) continue;
    const ref = providerRef(values[j]);
    if (!ref) {
      reurning.errors.push(l10n.t('cannot parse the provider reference {0} of {1}', String(JSON.stringify(values[j].provider)), String(values[j].urn)));
      continue;
    }
    if (ref.urn === from && values[j].provider !== reference) edit(j).provider = reference;
  }
}

function rewriteReferences(values: JsonObject[], j: number, from: string, to: string, edit: (i: number) => JsonObject): void {
  const record = values[j];
  const swap = (list: unknown) => (Array.isArray(list) && list.includes(from) ? list.map((u) => (u === from ? to : u)) : undefined);
  const dependencies = swap(record.dependencies);
  if (dependencies) edit(j).dependencies = dependencies;
  if (isObject(record.propertyDependencies)) {
    const entries = Object.entries(record.propertyDependencies);
    if (entries.some(([, list]) => Array.isArray(list) && list.includes(from))) {
      edit(j).propertyDependencies = Object.fromEntries(entries.map(([key, list]) => [key, swap(list) ?? list]));
    }
  }
  if (record.deletedWith === from) edit(j).deletedWith = to;
  if (record.replaceWith === from) edit(j).replaceWith = to;
  else {
    const replaceWith = swap(record.replaceWith);
    if (replaceWith) edit(j).replaceWith = replaceWith;
  }
}
