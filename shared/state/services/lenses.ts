/** A "N dependents" code lens on every urn definition, opening the references that depend on it. */
import type { CodeLens } from 'vscode-languageserver-types';
import { SHOW_DEPENDENTS_COMMAND, type ShowDependentsArguments } from '../../protocol';
import type { StateDocument } from './context';

export function stateCodeLenses({ snapshot, navigation }: StateDocument, uri: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  const located = navigation.allDefinitions();
  for (const [urn, definitions] of navigation.definedUrns()) {
    const definition = located.get(definitions[0]);
    if (!definition) continue;
    const count = navigation.dependentCount(urn);
    const range = snapshot.lines.rangeOf(definition.span);
    const show: ShowDependentsArguments = { uri, urn, position: range.start };
    lenses.push({ range, command: { title: count === 1 ? '1 dependent' : `${count} dependents`, command: SHOW_DEPENDENTS_COMMAND, arguments: [show] } });
  }
  return lenses;
}
