/**
 * The browser server's files: it has no file system, so it asks the client
 * (`quotaState/readWorkspaceFile`, `quotaState/readWorkspaceDirectory`, answered with
 * `vscode.workspace.fs`), which works on vscode.dev's and github.dev's virtual file systems too.
 * Lookups are synchronous and the answers are not: what is not in yet is requested and the lookup
 * says "not known yet"; when the last answer arrives `changed` re-checks the open documents.
 * A watched-file event forgets every answer.
 *
 * Two lookups use them: the `.quota-state.json` above a document, and an app.ini's quota file.
 */
import type { Connection } from 'vscode-languageserver';
import type { LookupIo } from '../../shared/ini';
import * as uriPaths from './nodePath';
import { parseProjectConfig, PROJECT_CONFIG_FILE, type ProjectConfig } from '../../shared/projectConfig';
import { ReadWorkspaceDirectoryRequest, ReadWorkspaceFileRequest } from '../../shared/protocol';
import { LookupPending } from '../modes/iniMode';
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

/** File texts and folder listings from the client, by URI; `undefined` while not known yet, `null` when there is none. */
export class ClientFiles {
  private readonly texts = new Map<string, string | null>();
  private readonly listings = new Map<string, string[] | null>();
  private readonly pending = new Set<string>();

  constructor(
    private readonly connection: Connection,
    private readonly changed: () => void,
  ) {}

  text(uri: string): string | null | undefined {
    return this.get(this.texts, 'file', uri, () => this.connection.sendRequest(ReadWorkspaceFileRequest, { uri }));
  }

  list(uri: string): string[] | null | undefined {
    return this.get(this.listings, 'folder', uri, () => this.connection.sendRequest(ReadWorkspaceDirectoryRequest, { uri }));
  }

  /** A watched file changed, appeared or went: ask again. */
  forget(): void {
    this.texts.clear();
    this.listings.clear();
  }

  private get<T>(known: Map<string, T | null>, kind: string, uri: string, request: () => Promise<T | null>): T | null | undefined {
    if (known.has(uri)) return known.get(uri);
    const key = `${kind} ${uri}`;
    if (!this.pending.has(key)) {
      this.pending.add(key);
      request().then(
        (value) => this.answer(key, () => known.set(uri, value)),
        () => this.answer(key, () => known.set(uri, null)),
      );
    }
    return undefined;
  }

  private answer(key: string, store: () => void): void {
    this.pending.delete(key);
    store();
    if (this.pending.size === 0) this.changed();
  }
}

/** The nearest `.quota-state.json` above a document; none while an answer on the way is not in. */
export function findClientConfig(files: ClientFiles, uri: string): ProjectConfig | undefined {
  for (const candidate of configCandidates(uri)) {
    const text = files.text(candidate);
    if (text === undefined) return undefined;
    if (text !== null) return parseProjectConfig(uriToPath(candidate), text);
  }
  return undefined;
}

/**
 * An app.ini's quota-file lookup on the client's files: paths are the document URI's path, read on
 * its scheme and authority. An open document's text wins; what is not in yet stops the lookup
 * (LookupPending) until the answers arrive.
 */
export function clientAppIniLookup(files: ClientFiles, openText: (uri: string) => string | undefined): (uri: string) => { path: string; io: LookupIo } | undefined {
  return (uri) => {
    const parts = URI_PARTS.exec(uri);
    if (!parts) return undefined;
    const [, prefix, path] = parts;
    const known = <T>(value: T | null | undefined): T | undefined => {
      if (value === undefined) throw new LookupPending();
      return value ?? undefined;
    };
    return {
      path,
      io: {
        path: uriPaths,
        readDir: (folder) => known(files.list(`${prefix}${folder}`)),
        readFile: (file) => openText(`${prefix}${file}`) ?? known(files.text(`${prefix}${file}`)),
      },
    };
  };
}
