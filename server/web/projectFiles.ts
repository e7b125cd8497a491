/**
 * The browser's lookup of `.quota-state.json`: the server has no file system, so it asks the
 * client (`quotaState/readWorkspaceFile`, answered with `vscode.workspace.fs`), which works on
 * vscode.dev's and github.dev's virtual file systems too. Lookups are synchronous and the answers
 * are not: a folder whose answer is not in yet counts as "no configuration", and when the last
 * answer arrives `changed` re-checks the open documents. A watched-file event forgets every answer.
 */
import type { Connection } from 'vscode-languageserver';
import { parseProjectConfig, PROJECT_CONFIG_FILE, type ProjectConfig } from '../../shared/projectConfig';
import { ReadWorkspaceFileRequest } from '../../shared/protocol';
import { uriToPath } from '../workspace';

/** `scheme:` or `scheme://authority`, then the path (query and fragment left out). */
const URI_PARTS = /^([a-z][a-z0-9+.-]*:(?:\/\/[^/?#]*)?)(\/[^?#]*)$/i;

/** The candidate `.quota-state.json` URIs for a document, nearest first. */
export function configCandidates(uri: string): string[] {
  const parts = URI_PARTS.exec(uri);
  if (!parts) return []; // untitled documents and other URIs without a path
  const [, prefix, path] = parts;
  const candidates: string[] = [];
  let folder = path.slice(0, path.lastIndexOf('/'));
  for (;;) {
    candidates.push(`${prefix}${folder}/${PROJECT_CONFIG_FILE}`);
    if (folder === '') return candidates;
    folder = folder.slice(0, folder.lastIndexOf('/'));
  }
}

export class ClientConfigLookup {
  /** Text per candidate URI; null when the client found none. */
  private readonly texts = new Map<string, string | null>();
  private readonly pending = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly changed: () => void,
  ) {}

  find(uri: string): ProjectConfig | undefined {
    for (const candidate of configCandidates(uri)) {
      const text = this.texts.get(candidate);
      if (text === undefined) {
        this.request(candidate);
        return undefined;
      }
      if (text !== null) return parseProjectConfig(uriToPath(candidate), text);
    }
    return undefined;
  }

  /** A `.quota-state.json` changed, appeared or went: ask again. */
  forget(): void {
    this.texts.clear();
  }

  private request(candidate: string): void {
    if (this.pending.has(candidate)) return;
    this.pending.add(candidate);
    this.connection.sendRequest(ReadWorkspaceFileRequest, { uri: candidate }).then(
      (text) => this.answer(candidate, text),
      () => this.answer(candidate, null),
    );
  }

  private answer(candidate: string, text: string | null): void {
    this.pending.delete(candidate);
    this.texts.set(candidate, text);
    if (this.pending.size === 0) this.changed();
  }
}
