/**
 * The front door of resource-state files, as vscode-json-languageservice's `getLanguageService` is
 * to its services: `createStateService()` gives one object offering every feature (parse once,
 * analysis, navigation, the editor's services, surgery), and the types they take. The server's mode,
 * its worker and the CLI call it; nothing outside `shared/state/` imports an inner file
 * (dependency-cruiser's `one-door-per-kind`). The kind does no I/O; a DIY backend is a kind of its
 * own (shared/backend/), which reads state through this door.
 */
import { analyzeSnapshot, analyzeState, reanalyzeState, SECRET_CODES, secretDiagnostics } from './analyze';
import { buildGraph, focusGraph, toDot, toMermaid } from './graph/graph';
import { graphView, prepareGraphView } from './graph/view';
import { editRecord, parseState, updateState, type StateSnapshot } from './model/snapshot';
import { buildStateStructure } from './model/structure';
import { NavigationIndex } from './navigation/navigationIndex';
import { STATE_RULES } from './rules';
import { fixesFor, stateCodeActions } from './services/codeActions';
import { stateCompletion } from './services/completion';
import { resourceName } from './services/context';
import { fieldSummaryHover, stateHover } from './services/hover';
import { stateCodeLenses } from './services/lenses';
import { stateDefinition, stateDependents, statePrepareRename, stateReferences, stateRename } from './services/navigation';
import { cutReferenceLabel, describeReport, pendingAt, pendingHoverText, pendingLabel, pendingOperations, reportOf, surgeryTargetAt, targetOf } from './services/surgery';
import { stateDocumentSymbols, stateWorkspaceSymbols } from './services/symbols';
import { openState } from './surgery/document';
import { INTEGRITY_CODES } from './surgery/repair';
import { runSurgery } from './surgery/runs';

export * from './vocabulary';
export type { StateAnalysis } from './analyze';
export { MERMAID_NODE_LIMIT, type ResourceGraph } from './graph/graph';
export { type GraphView, type GraphViewEdge, type GraphViewNode, type GraphViewRequest } from './graph/view';
export type { StateSnapshot } from './model/snapshot';
export type { NavigationIndex } from './navigation/navigationIndex';
export type { StateDocument } from './services/context';
export type { SurgeryReport } from './services/surgery';
export { WORKSPACE_SYMBOL_LIMIT } from './services/symbols';
export { SurgeryError, type EditableState, type SurgeryInput } from './surgery/document';
export type { SurgeryOutcome } from './surgery/outcome';

export function createStateService() {
  return {
    /** Parse once: the snapshot every feature reads. */
    parse: parseState,
    /** The snapshot of a later version, record by record when the edit stays in one record. */
    update: updateState,
    /** The snapshot of a later version and the record it changed; undefined when the whole text must be parsed. */
    editRecord,
    analyze: analyzeState,
    reanalyze: reanalyzeState,
    analyzeSnapshot,
    /**
     * Pulumi's secrets in a state, for a caller that holds the stack's key (the language server's
     * second pass, whose `SecretsPass` shared/backend's `stateSecretsPass` computes over the
     * vocabulary's `findSecrets`): the diagnostics of the secret codes (`codes`) with what that caller
     * found (`diagnostics`).
     */
    secrets: { codes: SECRET_CODES, diagnostics: secretDiagnostics },
    /** The rule modules, one per code, in the registry's order (their one-line docs document the codes). */
    rules: STATE_RULES,
    /** The navigation index of a snapshot, built lazily (derive it record by record after an edit). */
    navigationIndex: (snapshot: StateSnapshot) => new NavigationIndex(snapshot),
    /** Where the resources are in a value already parsed (no text positions): for readers that need only the records. */
    structureOf: buildStateStructure,
    resourceName,
    hover: stateHover,
    fieldSummaryHover,
    completion: stateCompletion,
    codeActions: stateCodeActions,
    fixesFor,
    codeLenses: stateCodeLenses,
    documentSymbols: stateDocumentSymbols,
    workspaceSymbols: stateWorkspaceSymbols,
    definition: stateDefinition,
    dependents: stateDependents,
    references: stateReferences,
    prepareRename: statePrepareRename,
    rename: stateRename,
    /** The resource graph, as `pulumi stack graph` draws it (and more, with `allEdges`). */
    graph: { build: buildGraph, focus: focusGraph, dot: toDot, mermaid: toMermaid, view: graphView, prepare: prepareGraphView },
    surgery: {
      open: openState,
      run: runSurgery,
      targetAt: surgeryTargetAt,
      targetOf,
      pendingAt,
      pendingOperations,
      pendingHoverText,
      report: reportOf,
      describe: describeReport,
      cutReferenceLabel,
      pendingLabel,
      /** The codes `repair` acts on: the code action is offered while one is reported. */
      integrityCodes: INTEGRITY_CODES,
    },
  };
}
