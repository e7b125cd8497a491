/**
 * The front door of quota config files and the quota engine, as vscode-json-languageservice's
 * `getLanguageService` is to its services: `createQuotaService()` gives one object offering every
 * feature (the analysis, the editor's services, the previews, the evaluation report, one account
 * explained, and the engine the reference API runs), and vocabulary.ts's words. The server's modes,
 * the CLI and the reference API call it; nothing outside `shared/quota/` imports an inner file
 * (dependency-cruiser's `one-door-per-kind`). It does no I/O, so it takes none.
 */
import { analyzeQuotaConfig, isEvaluable } from './config';
import { checkSubject, QuotaIndex } from './evaluate';
import { explainAccount } from './explain';
import { buildEvaluationReport, explainFile, reportOf } from './report';
import { QUOTA_DIAGNOSTIC_RULES } from './rules';
import { versionMismatchDiagnostic } from './rules/forgejoVersionMismatch';
import { quotaCodeActions, quotaFixesFor } from './services/codeActions';
import { quotaCompletion } from './services/completion';
import { quotaHover } from './services/hover';
import { findDefinition, findReferences, prepareRename, rename } from './services/navigation';
import { previewAccounts, previewCodeLenses, previewInlayHints } from './services/previews';
import { quotaDocumentSymbols } from './services/symbols';
import { computeUsage } from './usage';

export * from './vocabulary';
export type { QuotaAnalysis } from './config';
export type { QuotaIndex } from './evaluate';
export type { FileExplanation, ReportOptions } from './report';
export type { PreviewAccount } from './services/previews';
export { RenameError } from './services/navigation';

export function createQuotaService() {
  return {
    analyze: analyzeQuotaConfig,
    isEvaluable,
    rules: QUOTA_DIAGNOSTIC_RULES,
    versionMismatchDiagnostic,
    hover: quotaHover,
    completion: quotaCompletion,
    codeActions: quotaCodeActions,
    fixesFor: quotaFixesFor,
    definition: findDefinition,
    references: findReferences,
    prepareRename,
    rename,
    documentSymbols: quotaDocumentSymbols,
    previews: { accounts: previewAccounts, codeLenses: previewCodeLenses, inlayHints: previewInlayHints },
    evaluationReport: buildEvaluationReport,
    explainFile,
    reportOf,
    explainAccount,
    /** The engine as the reference API runs it: an account's groups indexed once, then one verdict per subject. */
    engine: { index: (...args: ConstructorParameters<typeof QuotaIndex>) => new QuotaIndex(...args), checkSubject, computeUsage },
  };
}
