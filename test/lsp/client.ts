/**
 * The reusable LSP test client (starts the real built server over stdio and speaks JSON-RPC).
 * One implementation lives in test/helpers/lspClient.ts; this path re-exports it for LSP suites.
 */
export { LspTestClient, cursor, positionAt, type LspClientOptions } from '../helpers/lspClient';
