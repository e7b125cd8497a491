/**
 * A "N dependents" code lens on every urn definition, opening the references that depend on it,
 * "graph", opening the resource graph focused on it, and, when it has dependents, "remove with
 * dependents…" (previewed before it applies). The commands they run are the adapter's to name (the
 * protocol lives above the core).
 */
import * as l10n from '@vscode/l10n';
import type { Lens } from '../../features';
import type { StateDocument } from './context';

/** What the dependents lens's command receives: where the urn is defined. */
interface DependentsLensTarget {
  uri: string;
  urn: string;
  position: { line: number; character: number };
}

/** What the remove lens's command receives: the surgery request for this urn and its dependents. */
interface RemoveWithDependentsTarget {
  uri: string;
  operation: 'remove';
  targets: string[];
  targetDependents: true;
}

export interface LensCommands {
  showDependents: string;
  removeWithDependents: string;
  /** Receives `{ uri, urn }`. */
  showGraph?: string;
}

export function stateCodeLenses({ snapshot, navigation }: StateDocument, uri: string, commands: LensCommands): Lens[] {
  const lenses: Lens[] = [];
  const located = navigation.allDefinitions();
  for (const [urn, definitions] of navigation.definedUrns()) {
    const definition = located.get(definitions[0]);
    if (!definition) continue;
    const count = navigation.dependentCount(urn);
    const range = snapshot.lines.rangeOf(definition.span);
    const show: DependentsLensTarget = { uri, urn, position: range.start };
    lenses.push({ range, command: { title: count === 1 ? l10n.t('1 dependent') : l10n.t('{0} dependents', count), command: commands.showDependents, arguments: [show] } });
    if (commands.showGraph) lenses.push({ range, command: { title: l10n.t('graph'), command: commands.showGraph, arguments: [{ uri, urn }] } });
    if (count > 0) {
      const remove: RemoveWithDependentsTarget = { uri, operation: 'remove', targets: [definitions.length > 1 ? `${urn}#1` : urn], targetDependents: true };
      lenses.push({ range, command: { title: l10n.t('remove with dependents…'), command: commands.removeWithDependents, arguments: [remove] } });
    }
  }
  return lenses;
}
