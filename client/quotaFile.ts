/** A quota file as the language server reads it: the client asks rather than bundling the analysis. */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { QuotaFileRequest } from '../shared/protocol';
import { quotaFileSummaryFromWire, type QuotaFileSummary } from '../shared/quota/vocabulary';

export type QuotaFileReader = (uri: vscode.Uri) => Promise<QuotaFileSummary | null>;

/** Reads `uri` (unsaved edits included) through the server; null when the server could not. */
export function quotaFileReader(client: LanguageClient): QuotaFileReader {
  return async (uri) => {
    const document = await vscode.workspace.openTextDocument(uri);
    const summary = await client.sendRequest(QuotaFileRequest, { uri: document.uri.toString(), text: document.getText() });
    // Limits beyond 2^53 arrive as their digits: back to exact bigints, so Push sends them unchanged.
    return summary && quotaFileSummaryFromWire(summary);
  };
}
