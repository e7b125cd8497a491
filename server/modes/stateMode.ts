/**
 * Language mode for resource-state files: adapts the services in shared/state/services to LSP.
 * Validation runs in the analysis worker, off this thread, so a large file never blocks the
 * editor; the features read a snapshot (parsed text, no validation) kept per uri+version, derived
 * from the previous version record by record, with its navigation index built on first use.
 */
import * as l10n from '@vscode/l10n';
import type { CancellationToken, CodeAction, Diagnostic as LspDiagnostic, Location } from 'vscode-languageserver';
import { CodeActionKind } from '../lsp';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Span } from '../../shared/diagnostics';
import {
  SECRETS_COMMANDS,
  SHOW_DEPENDENTS_COMMAND,
  SHOW_RESOURCE_GRAPH_COMMAND,
  SURGERY_COMMANDS,
  type ResourceGraphParams,
  type ResourceGraphResult,
  type ServerSettings,
} from '../../shared/protocol';
import { createStateService, WORKSPACE_SYMBOL_LIMIT, type NavigationIndex, type StateDocument, type StateSchemaMode, type StateShape, type StateSnapshot } from '../../shared/state';
import type { DocumentAnalyzer } from '../state/documentAnalyzer';
import type { StateSecrets } from '../features/secrets';
import { InThreadGraphRunner, type GraphRunner } from '../state/graphRunner';
import { DIAGNOSTIC_SOURCE, toCodeAction, toLspCompletionItems, toLspDocumentSymbols, toLspEdits, toLspWorkspaceSymbols } from '../convert';
import { DocumentCache } from './documentCache';
import { surgeryCodeActions, type SurgeryHost } from '../features/surgery';
import type { LanguageMode, ModeContext } from './languageMode';

const service = createStateService();

export interface StateMode extends LanguageMode, SurgeryHost {
  /** Where the records depending on `urn` refer to it, in file order (what the dependents lens counts). */
  dependents(document: TextDocument, urn: string): Location[];
  /**
   * The resource graph's picture, drawn off this thread: of the open document, or else of the file on
   * disk. While the text does not parse, the last one that did, marked stale. `null` when superseded,
   * cancelled, or there is nothing to draw.
   */
  resourceGraph(uri: string, document: TextDocument | undefined, params: ResourceGraphParams, token?: CancellationToken): Promise<ResourceGraphResult | null>;
}

/** What the last validation of each uri found, for the language status and the field summary hover. */
type Validated = Map<string, { shape: StateShape; parsedWith: 'json' | 'tolerant'; stateSchema: StateSchemaMode; diagnostics: Diagnostic[] }>;

type StateOf = (document: TextDocument) => StateDocument;

type NavigationFeatures = Pick<StateMode, 'hover' | 'definition' | 'dependents' | 'references' | 'prepareRename' | 'rename' | 'completion' | 'codeLenses' | 'documentSymbols' | 'workspaceSymbols'>;

/** What the mode needs of the secrets feature (server/features/secrets.ts), which needs the mode's snapshots: given once both exist. */
interface SecretsSlot {
  secrets?: Pick<StateSecrets, 'diagnostics' | 'hover' | 'forget'>;
}

export function createStateMode(
  context: ModeContext & { readonly settings?: ServerSettings },
  analyzer: DocumentAnalyzer,
  graphs: GraphRunner = new InThreadGraphRunner(),
): StateMode & { snapshot(document: TextDocument): StateSnapshot; useSecrets(secrets: SecretsSlot['secrets']): void } {
  const { cache, state } = stateDocuments(analyzer);
  const slot: SecretsSlot = {};
  const preparer = navigationPreparer(state, context);
  const validated: Validated = new Map();
  const host: SurgeryHost = {
    stateDocument: (document) => state(document),
    needsRepair: (uri) => validated.get(uri)?.diagnostics.some((d) => d.severity === 'error' && service.surgery.integrityCodes.has(d.code)) === true,
  };

  return {
    kind: 'state',
    async validate(document) {
      const analysis = await analyzer.analyzeDocument(document, context.stateSchemaFor(document.uri));
      const { shape, parsedWith, stateSchema } = analysis;
      // The secret codes as the stack's key found them, once the secrets pass of this version is done (it starts after this publish).
      const diagnostics = slot.secrets ? slot.secrets.diagnostics(document, analysis.diagnostics, stateSchema) : analysis.diagnostics;
      validated.set(document.uri, { shape, parsedWith, stateSchema, diagnostics });
      // What the outline, the lenses and the first hover read is readied once the diagnostics are out
      // (the caller publishes before any timer runs), so it never competes with the analysis.
      preparer.later(document);
      return diagnostics;
    },
    status(document) {
      const last = validated.get(document.uri);
      if (!last) return {};
      const unavailable = last.parsedWith === 'tolerant' ? [{ feature: 'reorder', reason: l10n.t('The file has JSON syntax errors; fix them to reorder resources.') }] : [];
      return { shape: last.shape, schema: last.stateSchema, unavailable };
    },
    ...host,
    snapshot: (document) => cache.get(document).snapshot,
    useSecrets: (secrets) => void (slot.secrets = secrets),
    ...navigationFeatures(state, validated, slot),
    resourceGraph(uri, document, params, token) {
      const { uri: _uri, dot, ...request } = params;
      const source = document ? { kind: 'document' as const, version: document.version, text: () => document.getText() } : { kind: 'disk' as const };
      return graphs.run({ uri, source, diagnostics: (document && validated.get(uri)?.diagnostics) || [], request, dot: dot === true }, token);
    },
    codeActions(document, range, codeActionContext) {
      const { snapshot } = cache.get(document);
      const ours = codeActionContext.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
      const fixes = service.codeActions(snapshot, ours).map((action) => toCodeAction(snapshot.lines, document.uri, action));
      return [...fixes, ...passphraseActions(document.uri, ours), ...surgeryCodeActions(host, document, range, codeActionContext)];
    },
    forget(uri) {
      preparer.cancel(uri);
      cache.forget(uri);
      validated.delete(uri);
      graphs.forget(uri);
      analyzer.forget(uri);
      slot.secrets?.forget(uri);
    },
  };
}

/** Each document's snapshot, derived from its previous version record by record, with its navigation index built on first use. */
function stateDocuments(analyzer: DocumentAnalyzer) {
  const cache = new DocumentCache<{ snapshot: StateSnapshot; navigation?: NavigationIndex }>((document, previous) => {
    const text = document.getText();
    if (previous && text === previous.snapshot.text) return previous;
    // An edit inside one record: carry the rest of the snapshot and of the navigation index over.
    const edit = previous && service.editRecord(previous.snapshot, text);
    if (edit) return { snapshot: edit.snapshot, navigation: previous.navigation?.derive(edit.snapshot, edit.index) };
    // Parse once: a document this thread analysed already has its snapshot.
    return { snapshot: analyzer.snapshotOf(document.uri, text) ?? service.parse(text) };
  });
  const state: StateOf = (document) => {
    const entry = cache.get(document);
    entry.navigation ??= service.navigationIndex(entry.snapshot);
    return { snapshot: entry.snapshot, navigation: entry.navigation };
  };
  return { cache, state };
}

/** Readies a document's navigation in a timer after its validation, cancelled when the document changes or closes. */
function navigationPreparer(state: StateOf, context: ModeContext) {
  const preparing = new Map<string, ReturnType<typeof setTimeout>>();
  const cancel = (uri: string) => {
    clearTimeout(preparing.get(uri));
    preparing.delete(uri);
  };
  const later = (document: TextDocument) => {
    cancel(document.uri);
    const version = document.version;
    const timer = setTimeout(() => {
      preparing.delete(document.uri);
      if (document.version !== version) return; // the next validation readies the newer version
      try {
        state(document).navigation.prepare();
      } catch (error) {
        context.logError(`Could not prepare ${document.uri} for navigation: ${error instanceof Error ? error.message : String(error)}`);
      }
    }, 0);
    preparing.set(document.uri, timer);
  };
  return { later, cancel };
}

/** A plaintext secret whose fix waits for the stack's key: an action that asks for the passphrase. */
function passphraseActions(uri: string, diagnostics: readonly LspDiagnostic[]): CodeAction[] {
  const waiting = diagnostics.filter((d) => d.code === 'secret-in-plaintext' && typeof (d.data as { ciphertext?: unknown } | undefined)?.ciphertext !== 'string');
  if (waiting.length === 0) return [];
  const title = l10n.t("Enter the stack's passphrase to encrypt this secret…");
  return [{ title, kind: CodeActionKind.QuickFix, diagnostics: waiting, command: { title, command: SECRETS_COMMANDS.enterPassphrase, arguments: [uri] } }];
}

/** Hover, navigation, rename, completion, lenses and symbols: each reads the document's snapshot. */
function navigationFeatures(state: StateOf, validated: Validated, slot: SecretsSlot): NavigationFeatures {
  const at = (document: TextDocument, position: { line: number; character: number }) => {
    const current = state(document);
    return { current, offset: current.snapshot.lines.offsetAt(position) };
  };
  const locations = (document: TextDocument, { snapshot }: StateDocument, spans: Span[] | null): Location[] | null =>
    spans && spans.map((span) => ({ uri: document.uri, range: snapshot.lines.rangeOf(span) }));

  return {
    hover(document, position) {
      const secret = slot.secrets?.hover(document, document.offsetAt(position));
      if (secret) return secret;
      const { current, offset } = at(document, position);
      const pending = service.surgery.pendingAt(current, offset);
      if (pending) return { contents: { kind: 'markdown', value: service.surgery.pendingHoverText(pending) }, range: current.snapshot.lines.rangeOf(pending.span) };
      return service.fieldSummaryHover(current, validated.get(document.uri)?.diagnostics, offset) ?? service.hover(current, offset);
    },
    definition: (document, position) => {
      const { current, offset } = at(document, position);
      return locations(document, current, service.definition(current, offset));
    },
    dependents: (document, urn) => locations(document, state(document), service.dependents(state(document), urn))!,
    references: (document, position, includeDeclaration) => {
      const { current, offset } = at(document, position);
      return locations(document, current, service.references(current, offset, includeDeclaration));
    },
    prepareRename(document, position) {
      const { current, offset } = at(document, position);
      const target = service.prepareRename(current, offset);
      return target && { range: current.snapshot.lines.rangeOf(target.span), placeholder: target.placeholder };
    },
    rename(document, position, newName) {
      const { current, offset } = at(document, position);
      const edits = service.rename(current, offset, newName);
      return edits && { changes: { [document.uri]: toLspEdits(current.snapshot.lines, edits) } };
    },
    completion: (document, position) => {
      const { current, offset } = at(document, position);
      const entries = service.completion(current, offset);
      return entries && { isIncomplete: false, items: toLspCompletionItems(entries) };
    },
    codeLenses: (document) =>
      service.codeLenses(state(document), document.uri, { showDependents: SHOW_DEPENDENTS_COMMAND, removeWithDependents: SURGERY_COMMANDS.run, showGraph: SHOW_RESOURCE_GRAPH_COMMAND }),
    documentSymbols: (document) => toLspDocumentSymbols(service.documentSymbols(state(document))),
    workspaceSymbols(query, documents) {
      const results: Parameters<typeof service.workspaceSymbols>[3] = [];
      for (const document of documents) {
        if (results.length >= WORKSPACE_SYMBOL_LIMIT) break;
        service.workspaceSymbols(state(document), document.uri, query, results);
      }
      return toLspWorkspaceSymbols(results);
    },
  };
}
