/**
 * The server's one import of vscode-languageserver's values. The package is CommonJS, and a bundler
 * wraps it anew for every module that imports it, copying its ~300 exports each time: a start paid
 * for that eight times. The server's modules take its values from here (its types they may import
 * directly; the lint rule in eslint.config.mjs says so).
 */
export {
  CancellationTokenSource,
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  DidChangeConfigurationNotification,
  ErrorCodes,
  InlayHintKind,
  ResponseError,
  SymbolKind,
  TextDocuments,
  TextDocumentSyncKind,
} from 'vscode-languageserver';
