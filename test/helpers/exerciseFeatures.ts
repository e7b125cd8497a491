/** Sends every editor request a document supports, at a few positions, for robustness tests. */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { LspTestClient } from './lspClient';

export async function exerciseFeatures(client: LspTestClient, uri: string, stale: Diagnostic[], current: Diagnostic[]): Promise<void> {
  const textDocument = { uri };
  const whole = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } };
  for (const position of [
    { line: 0, character: 1 },
    { line: 5, character: 20 },
    { line: 8, character: 30 },
  ]) {
    await client.request('textDocument/hover', { textDocument, position });
    await client.request('textDocument/completion', { textDocument, position });
    await client.request('textDocument/definition', { textDocument, position });
    await client.request('textDocument/references', { textDocument, position, context: { includeDeclaration: true } });
    const rename = await client.request<unknown, unknown>('textDocument/prepareRename', { textDocument, position });
    if (rename) await client.request('textDocument/rename', { textDocument, position, newName: 'renamed' }).catch(() => undefined);
  }
  await client.request('textDocument/documentSymbol', { textDocument });
  await client.request('textDocument/inlayHint', { textDocument, range: whole });
  await client.request('textDocument/codeLens', { textDocument });
  for (const diagnostics of [stale, current]) {
    await client.request('textDocument/codeAction', { textDocument, range: whole, context: { diagnostics } });
  }
}
