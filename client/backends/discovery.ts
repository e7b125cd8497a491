/**
 * Which backends the Backends view shows: workspace folders holding a DIY backend (`.pulumi/meta.yaml`
 * or `.pulumi/stacks/`) or a folder of theirs that does, the backends Pulumi itself would use, and
 * those added by hand, remembered per workspace. It knows roots only; the tree (tree.ts) reads them.
 */
import * as vscode from 'vscode';
import { backendFolderProblem, backendUrlTarget, projectBackendUrl, readBackend } from '../../shared/backend/vocabulary';
import { bucketsSupported } from './bucketAccess';
import { bucketRootUri } from './bucketFileSystem';
import { isRemoteUri } from './remoteUris';
import { workspaceBackendStore } from './store';

const REMEMBERED_KEY = 'quotaState.backends';

/** Why `root` cannot hold a backend, when it is missing or a file; undefined when it is a folder (or a bucket). */
export async function rootProblem(root: vscode.Uri): Promise<string | undefined> {
  if (isRemoteUri(root)) return undefined;
  const shown = root.scheme === 'file' ? root.fsPath : root.toString();
  try {
    const stat = await vscode.workspace.fs.stat(root);
    if (!(stat.type & vscode.FileType.Directory)) return backendFolderProblem(shown, 'file');
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return backendFolderProblem(shown, 'missing');
  }
  return undefined;
}

async function holdsBackend(folder: vscode.Uri): Promise<boolean> {
  for (const marker of ['.pulumi/meta.yaml', '.pulumi/stacks']) {
    try {
      await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder, ...marker.split('/')));
      return true;
    } catch {
      // not this marker
    }
  }
  return false;
}

/** The workspace folders holding a backend, or a folder of theirs that does (one level down). */
async function workspaceRoots(): Promise<vscode.Uri[]> {
  const found: vscode.Uri[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (await holdsBackend(folder.uri)) {
      found.push(folder.uri);
      continue;
    }
    let entries: Array<[string, vscode.FileType]> = [];
    try {
      entries = await vscode.workspace.fs.readDirectory(folder.uri);
    } catch {
      // an unreadable folder holds nothing we can show
    }
    const folders = entries.filter(([name, type]) => type & vscode.FileType.Directory && !name.startsWith('.') && name !== 'node_modules').map(([name]) => vscode.Uri.joinPath(folder.uri, name));
    for (const [index, held] of (await Promise.all(folders.map(holdsBackend))).entries()) if (held) found.push(folders[index]);
  }
  return found;
}

/**
 * The folders Pulumi itself would use: `PULUMI_BACKEND_URL` (where the extension host has an
 * environment) and each workspace project's `Pulumi.yaml` `backend.url`, when they name a
 * `file://` folder or, where the host reaches object storage, an `s3://` bucket. The URLs are read
 * as the CLI reads them (shared/backend/url.ts); one it would refuse names nothing here.
 */
async function configuredRoots(): Promise<vscode.Uri[]> {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const folderOf = (url: string, base: vscode.Uri | undefined): vscode.Uri | undefined => {
    let target: ReturnType<typeof backendUrlTarget>;
    try {
      target = backendUrlTarget(url, environment, (path) => path.startsWith('/'));
    } catch {
      return undefined;
    }
    if (target.remote) return bucketsSupported ? bucketRootUri(url) : undefined;
    const { path, from } = target.folder;
    if (from === 'home') return environment.HOME ? vscode.Uri.file(environment.HOME + path) : undefined;
    if (from === 'absolute') return vscode.Uri.file(path);
    return base && vscode.Uri.joinPath(base, path);
  };
  const roots: vscode.Uri[] = [];
  const fromEnvironment = environment.PULUMI_BACKEND_URL && folderOf(environment.PULUMI_BACKEND_URL, vscode.workspace.workspaceFolders?.[0]?.uri);
  if (fromEnvironment) roots.push(fromEnvironment);
  for (const project of await vscode.workspace.findFiles('{Pulumi.yaml,Pulumi.yml,*/Pulumi.yaml,*/Pulumi.yml}', '**/node_modules/**', 50)) {
    try {
      const { url } = projectBackendUrl(new TextDecoder().decode(await vscode.workspace.fs.readFile(project)));
      const folder = url && folderOf(url, project.with({ path: project.path.slice(0, project.path.lastIndexOf('/')) }));
      if (folder) roots.push(folder);
    } catch {
      // an unreadable project (or not YAML) names no backend
    }
  }
  return roots;
}

export class BackendDiscovery {
  constructor(private readonly state: vscode.Memento) {}

  /** Workspace folders holding a backend (or a folder of theirs), then those Pulumi would use, then those added by hand; each once. */
  async roots(): Promise<vscode.Uri[]> {
    const found = await workspaceRoots();
    for (const configured of await configuredRoots()) if (await holdsBackend(configured)) found.push(configured);
    const remembered = this.state.get<string[]>(REMEMBERED_KEY, []).map((text) => vscode.Uri.parse(text, true));
    const seen = new Set<string>();
    return [...found, ...remembered].filter((uri) => !seen.has(uri.toString()) && seen.add(uri.toString()));
  }

  /** Remembers `root` for this workspace when it holds a backend; otherwise says why not (and remembers nothing). */
  async remember(root: vscode.Uri): Promise<string | undefined> {
    const shown = root.scheme === 'file' ? root.fsPath : root.toString();
    const problem = await rootProblem(root);
    if (problem) return problem;
    try {
      await readBackend(workspaceBackendStore(root));
    } catch (error) {
      return vscode.l10n.t('{0} holds no Pulumi DIY backend: {1}', shown, error instanceof Error ? error.message : String(error));
    }
    const remembered = this.state.get<string[]>(REMEMBERED_KEY, []);
    if (!remembered.includes(root.toString())) await this.state.update(REMEMBERED_KEY, [...remembered, root.toString()]);
    return undefined;
  }
}
