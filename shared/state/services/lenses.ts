/**
 * A "N dependents" code lens on every urn definition, opening the references that depend on it. The
 * command it runs is the adapter's to name (the protocol lives above the core).
 */
import type { CodeLens } from 'vscode-languageserver-types';
import type { StateDocument } from './context';

/** What the lens's command receives: where the urn is defined. */
export interface DependentsLensTarget {
  uri: string;
  urn: string;
  position: { line: number; character: number };
}

export function stateCodeLenses({ snapshot, navigation }: StateDocument, uri: string, command: string): CodeLens[] {
  const lenses: CodeLens[] = [];
  const located = navigation.allDefinitions();
  for (const [urn, definitions] of navigation.definedUrns()) {
    const definition = located.get(definitions[0]);
    if (!definition) continue;
    const count = navigation.dependentCount(urn);
    const range = snapshot.lines.rangeOf(definition.span);
    const show: DependentsLensTarget = { uri, urn, position: range.start };
    lenses.push({ range, command: { title: count === 1 ? '1 dependent' : `${count} dependents`, command, arguments: [show] } });
  }
  return lenses;
}
