/**
 * Language mode for quota config and instance files. The analysis is
 * computed once per document version and shared by every feature; the features themselves
 * live in shared/quota/services and this module only converts positions and errors.
 */
import type { Position } from 'vscode-languageserver';
import { ErrorCodes, ResponseError } from '../lsp';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  type QuotaAnalysis,
  leafUsageFromQuotaUsed,
  describeResolvedProfile,
  resolveForgejoProfile,
  rulesLabel,
  type ForgejoProfile,
  type ResolvedForgejoProfile,
  type EvaluationReport,
  type ReportOptions,
  RenameError,
  type PreviewAccount,
  createQuotaService,
} from '../../shared/quota';
import { DIAGNOSTIC_SOURCE, toCodeAction, toLspCompletionItems, toLspDocumentSymbols, toLspEdits, toLspInlayHints } from '../convert';
import { DocumentCache } from './documentCache';
import type { LanguageMode, ModeContext } from './languageMode';
import type { DocumentStatusParams } from '../../shared/protocol';

const {
  analyze: analyzeQuotaConfig,
  evaluationReport: buildEvaluationReport,
  versionMismatchDiagnostic,
  codeActions: quotaCodeActions,
  completion: quotaCompletion,
  hover: quotaHover,
  definition: findDefinition,
  references: findReferences,
  prepareRename,
  rename,
  previews: { accounts: previewAccounts, codeLenses: previewCodeLenses, inlayHints: previewInlayHints },
  documentSymbols: quotaDocumentSymbols,
} = createQuotaService();

export interface QuotaMode extends LanguageMode {
  analysis(document: TextDocument): QuotaAnalysis;
  evaluationReport(document: TextDocument, options?: Omit<ReportOptions, 'live'>): EvaluationReport;
  /** The version in force for a quota file's analysis (its own, the setting, the connected server, the default), or, without one, for a server's answer. */
  forgejoFor(analysis: QuotaAnalysis | undefined, server?: { version?: string }): ResolvedForgejoProfile;
}

/** The language status part: "Forgejo 11.0 rules", and where the version came from. */
export function forgejoStatus(forgejo: ResolvedForgejoProfile): DocumentStatusParams['forgejo'] {
  return { rules: rulesLabel(forgejo.profile), version: forgejo.profile.version, source: forgejo.source, description: describeResolvedProfile(forgejo) };
}

export function createQuotaMode(context: ModeContext): QuotaMode {
  interface CacheEntry {
    analysis: QuotaAnalysis;
    previews?: { live: unknown; profile: ForgejoProfile; accounts: PreviewAccount[] };
  }
  const cache = new DocumentCache<CacheEntry>((document) => ({ analysis: analyzeQuotaConfig(document.getText()) }));
  const entry = (document: TextDocument) => cache.get(document);
  const analysis = (document: TextDocument) => entry(document).analysis;
  const offset = (document: TextDocument, position: Position) => analysis(document).lines.offsetAt(position);

  /** The version in force for a document: its own `forgejoVersion`, the setting, the connected server, else the default. */
  const forgejoForAnalysis = (analysed: QuotaAnalysis | undefined, server = { version: context.liveUsage()?.version }): ResolvedForgejoProfile =>
    resolveForgejoProfile([
      { source: 'file', version: analysed?.forgejoVersion?.text },
      { source: 'setting', version: context.settings.forgejoVersion },
      { source: 'server', version: server.version },
    ]);
  const forgejoFor = (document: TextDocument): ResolvedForgejoProfile => forgejoForAnalysis(analysis(document));

  const liveOption = (): ReportOptions['live'] => {
    const live = context.liveUsage();
    return live ? { account: live.account, server: live.server, usage: leafUsageFromQuotaUsed(live.quota?.used) } : undefined;
  };

  /** Preview verdicts, cached per document version, live usage and Forgejo version in force. */
  const previews = (document: TextDocument): PreviewAccount[] => {
    const cached = entry(document);
    const live = context.liveUsage();
    const forgejo = forgejoFor(document);
    if (!cached.previews || cached.previews.live !== live || cached.previews.profile !== forgejo.profile) {
      cached.previews = { live, profile: forgejo.profile, accounts: previewAccounts(cached.analysis, liveOption(), forgejo) };
    }
    return cached.previews.accounts;
  };

  return {
    kind: 'quota',
    analysis,
    validate: (document) => {
      const live = context.liveUsage();
      const mismatch = versionMismatchDiagnostic(analysis(document), live?.version, live?.server);
      return mismatch ? [...analysis(document).diagnostics, mismatch] : analysis(document).diagnostics;
    },
    status: (document) => ({ shape: analysis(document).isInstance ? 'instance' : 'quota config', forgejo: forgejoStatus(forgejoFor(document)) }),
    forgejoFor: forgejoForAnalysis,
    evaluationReport: (document, options = {}) => buildEvaluationReport(analysis(document), { forgejo: forgejoFor(document), ...options, live: liveOption() }),
    hover: (document, position) => quotaHover(analysis(document), offset(document, position), previews(document), forgejoFor(document)),
    completion: (document, position) => ({ isIncomplete: false, items: toLspCompletionItems(quotaCompletion(analysis(document), offset(document, position))) }),
    definition: (document, position) => findDefinition(analysis(document), document.uri, offset(document, position)),
    references: (document, position, includeDeclaration) => findReferences(analysis(document), document.uri, offset(document, position), includeDeclaration),
    prepareRename: (document, position) => prepareRename(analysis(document), offset(document, position)),
    rename: (document, position, newName) => {
      try {
        const edits = rename(analysis(document), offset(document, position), newName);
        return edits && { changes: { [document.uri]: toLspEdits(analysis(document).lines, edits) } };
      } catch (error) {
        if (error instanceof RenameError) throw new ResponseError(ErrorCodes.InvalidParams, error.message);
        throw error;
      }
    },
    codeActions: (document, _range, codeActionContext) =>
      quotaCodeActions(
        analysis(document),
        codeActionContext.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE),
      ).map((action) => toCodeAction(analysis(document).lines, document.uri, action)),
    codeLenses: (document) => previewCodeLenses(analysis(document), previews(document)),
    inlayHints: (document, range) => toLspInlayHints(previewInlayHints(analysis(document), previews(document), range)),
    documentSymbols: (document) => toLspDocumentSymbols(quotaDocumentSymbols(analysis(document))),
    forget: (uri) => cache.forget(uri),
  };
}
