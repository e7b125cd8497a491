/**
 * A "N dependents" code lens on every urn definition, opening the references that depend on it,
 * and beside it, when there are any, "remove with dependents…" (previewed before it applies).
 */
import type { CodeLens } from 'vscode-languageserver-types';
import { SHOW_DEPENDENTS_COMMAND, SURGERY_COMMANDS, type ShowDependentsArguments, type SurgeryParams } from '../../protocol';
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
    if (count > 0) {
      const remove: SurgeryParams = { uri, operation: 'remove', targets: [definitions.length > 1 ? `${urn}#1` : urn], targetDependents: true };
      lenses.push({ range, command: { title: 'remove with dependents…', command: SURGERY_COMMANDS.run, arguments: [remove] } });
    }
  }
  return lenses;
}
