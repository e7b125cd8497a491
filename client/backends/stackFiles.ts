/**
 * The one map from a stack file's URI, however it was opened, to its backend and stack: a file of a
 * folder (File › Open, the Explorer: `file:`, `vscode-remote:`, …), the same decompressed
 * (`pulumi-gz:`), the Backends view's read-only document (`pulumi-backend:…?<original>`), and a
 * bucket's object (`pulumi-s3:`, whose query is the bucket URL's and stays on the root). Show
 * History and Compare with Previous read their stack through it.
 */
import type * as vscode from 'vscode';
import { stackFileOf } from '../../shared/backend/vocabulary';
import { COMPRESSED_SCHEME, compressedOriginal } from '../compressedState';
import { isRemoteUri } from './remoteUris';
import { BACKEND_DOCUMENT_SCHEME, backendDocumentOriginal } from './documents';

/** The file a document shows: a backend document's or a decompressed view's original, else the URI itself. */
function originalFileOf(uri: vscode.Uri): vscode.Uri {
  if (uri.scheme === BACKEND_DOCUMENT_SCHEME) return originalFileOf(backendDocumentOriginal(uri));
  if (uri.scheme === COMPRESSED_SCHEME) return compressedOriginal(uri);
  return uri;
}

/** The backend root (as the view and the store take it) and the stack's name as Pulumi gives it, when `uri` is a stack file. */
export function stackFileLocation(uri: vscode.Uri): { root: vscode.Uri; ref: string; file: vscode.Uri } | undefined {
  const file = originalFileOf(uri);
  const stack = stackFileOf(file.path);
  if (!stack) return undefined;
  const path = stack.root || '/';
  // A bucket root keeps its query (region, endpoint): it is part of the backend's URL.
  const root = isRemoteUri(file) ? file.with({ path, fragment: '' }) : file.with({ path, query: '', fragment: '' });
  return { root, ref: stack.ref, file };
}
