/**
 * Which DIY backend a URL names, and which backend a command reads, in Pulumi's order: the
 * argument (`--backend URL`), `PULUMI_BACKEND_URL`, the project's `Pulumi.yaml` `backend.url`, the
 * current backend of `~/.pulumi/credentials.json`; then, ours, the nearest folder at or above the
 * working folder holding `.pulumi/meta.yaml` or `.pulumi/stacks/`. `~/.pulumi` is a backend only
 * when named, as `file://~` names it. `file://` folders and the remote schemes of remoteUrl.ts are
 * read; Pulumi Cloud and any other scheme are refused, saying so. Pure: the environment, the files and the path
 * rules are injected (the CLI gives Node's, the Backends view reads `vscode.workspace.fs`).
 */
import * as l10n from '@vscode/l10n';
import { parse as parseYaml } from 'yaml';
import { parseRemoteBackendUrl, remoteBackendShown, REMOTE_SCHEMES, remoteSchemeOf, RemoteUrlError, type RemoteBackendUrl } from './remoteUrl';

/** A backend URL that names no backend quota-state reads, or a project file that cannot be read. */
export class BackendUrlError extends Error {}

/** Where the URL came from, for messages. */
type BackendUrlSource = 'flag' | 'env' | 'project' | 'credentials' | 'folder';

export interface ResolvedBackendUrl {
  /** The folder holding `.pulumi/` (a `file://` backend). */
  root?: string;
  /** A remote backend (`s3://`, …), its URL read as Pulumi reads it. */
  remote?: RemoteBackendUrl;
  /** The URL as Pulumi would name it (`file:///srv/state`), without any credential it held. */
  url: string;
  source: BackendUrlSource;
  /** The project of the nearest `Pulumi.yaml` (bare stack names take it). */
  project?: string;
}

/** The host's path rules (Node's `node:path` fits). */
interface BackendUrlPaths {
  dirname(path: string): string;
  join(...paths: string[]): string;
  resolve(...paths: string[]): string;
  isAbsolute(path: string): boolean;
}

export interface BackendUrlHost {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  home: string;
  path: BackendUrlPaths;
  /** A file's text; undefined when there is no such file. It may reject when the file is there but unreadable. */
  readText(path: string): Promise<string | undefined>;
  /** Whether a file or folder is there. */
  exists(path: string): Promise<boolean>;
}

/**
 * What a `file://` URL names: a path relative to the home folder (`file://~/x`: `path` is `/x`,
 * or '' for `file://~`), to the folder the URL is read in (`file://state`), or absolute.
 */
interface BackendFolderUrl {
  path: string;
  from: 'home' | 'base' | 'absolute';
}

export type BackendUrlTarget = { remote: RemoteBackendUrl; folder?: undefined } | { folder: BackendFolderUrl; remote?: undefined };

/**
 * What one backend URL names: a remote backend, read as Pulumi reads it, or a folder, left for the caller to
 * place (`isAbsolute` is the host's rule). A URL quota-state does not read is a `BackendUrlError`.
 */
export function backendUrlTarget(url: string, env: Readonly<Record<string, string | undefined>>, isAbsolute: (path: string) => boolean): BackendUrlTarget {
  let remote: RemoteBackendUrl | undefined;
  try {
    remote = parseRemoteBackendUrl(url, env);
  } catch (error) {
    if (error instanceof RemoteUrlError) throw new BackendUrlError(error.message);
    throw error;
  }
  if (remote) return { remote };
  if (/^https?:\/\//.test(url)) throw new BackendUrlError(l10n.t('{0} is a Pulumi Cloud backend; quota-state reads DIY backends only (file://…)', url));
  if (!url.includes('://')) throw new BackendUrlError(l10n.t('"{0}" is not a backend URL', url));
  if (!url.startsWith('file://')) {
    const scheme = url.slice(0, url.indexOf('://'));
    const read = ['file', ...REMOTE_SCHEMES].map((name) => `${name}://`).join(', ');
    throw new BackendUrlError(l10n.t('{0}: {1}:// backends are not read; quota-state reads {2} backends', url, scheme, read));
  }
  let rest: string;
  try {
    rest = decodeURIComponent(url.slice('file://'.length).replace(/\?.*$/, ''));
  } catch {
    throw new BackendUrlError(l10n.t('{0} is not a valid file:// URL (a % not followed by two hex digits)', url));
  }
  if (rest === '~' || rest.startsWith('~/')) return { folder: { path: rest.slice(1), from: 'home' } };
  return { folder: { path: rest, from: isAbsolute(rest) ? 'absolute' : 'base' } };
}

/** A `Pulumi.yaml`'s project name and `backend.url`, each when it is a string. Invalid YAML throws the parser's error. */
export function projectBackendUrl(text: string): { name?: string; url?: string } {
  const parsed: unknown = parseYaml(text);
  const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const backend = value.backend as { url?: unknown } | undefined;
  return {
    ...(typeof value.name === 'string' ? { name: value.name } : {}),
    ...(typeof backend?.url === 'string' ? { url: backend.url } : {}),
  };
}

/** The nearest `Pulumi.yaml` (or `.yml`) at or above `cwd`, read; undefined when there is none. */
async function projectFile({ cwd, path, readText }: BackendUrlHost): Promise<{ path: string; name?: string; url?: string } | undefined> {
  for (let folder = cwd; ; folder = path.dirname(folder)) {
    for (const name of ['Pulumi.yaml', 'Pulumi.yml']) {
      const file = path.join(folder, name);
      let project: { name?: string; url?: string };
      try {
        const text = await readText(file);
        if (text === undefined) continue;
        project = projectBackendUrl(text);
      } catch (error) {
        throw new BackendUrlError(l10n.t('{0}: not valid YAML: {1}', file, error instanceof Error ? error.message.split('\n')[0] : String(error)));
      }
      return { path: file, ...project };
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** `~/.pulumi/credentials.json`'s `current`, when it names one; anything unreadable names none. */
async function currentFromCredentials({ home, path, readText }: BackendUrlHost): Promise<string | undefined> {
  try {
    const credentials = JSON.parse((await readText(path.join(home, '.pulumi', 'credentials.json'))) ?? '') as { current?: unknown };
    return typeof credentials.current === 'string' && credentials.current !== '' ? credentials.current : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest folder at or above `cwd` that holds a backend, never the home folder's `.pulumi` (plugins and credentials). */
async function nearestBackendFolder({ cwd, home, path, exists }: BackendUrlHost): Promise<string | undefined> {
  for (let folder = cwd; ; folder = path.dirname(folder)) {
    const holds = (await exists(path.join(folder, '.pulumi', 'meta.yaml'))) || (await exists(path.join(folder, '.pulumi', 'stacks')));
    if (holds && path.resolve(folder) !== path.resolve(home)) return folder;
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** A URL named by `source`, read in `base` (the project's folder for `backend.url`, else the working folder). */
function resolveNamed(url: string, source: BackendUrlSource, base: string, host: BackendUrlHost): Omit<ResolvedBackendUrl, 'project'> {
  const { path } = host;
  if (!remoteSchemeOf(url) && !url.includes('://')) {
    throw new BackendUrlError(l10n.t('"{0}" is not a backend URL; a folder is named file://{1}', url, path.resolve(base, url)));
  }
  const target = backendUrlTarget(url, host.env, path.isAbsolute);
  if (target.remote) return { remote: target.remote, url: remoteBackendShown(target.remote), source };
  const { path: named, from } = target.folder;
  const root = from === 'home' ? path.join(host.home, named) : from === 'absolute' ? named : path.resolve(base, named);
  return { root, url, source };
}

/** The backend a command reads: `argument` first, then Pulumi's order, then the nearest folder holding one. */
export async function resolveBackendUrl(argument: string | undefined, host: BackendUrlHost): Promise<ResolvedBackendUrl> {
  const project = await projectFile(host);
  const named: Array<[BackendUrlSource, () => Promise<string | undefined> | string | undefined]> = [
    ['flag', () => argument],
    ['env', () => host.env.PULUMI_BACKEND_URL || undefined],
    ['project', () => project?.url],
    ['credentials', () => currentFromCredentials(host)],
  ];
  const withProject = (resolved: Omit<ResolvedBackendUrl, 'project'>): ResolvedBackendUrl => ({ ...resolved, ...(project?.name ? { project: project.name } : {}) });
  for (const [source, read] of named) {
    const url = await read();
    if (url === undefined) continue;
    return withProject(resolveNamed(url, source, source === 'project' ? host.path.dirname(project!.path) : host.cwd, host));
  }
  const folder = await nearestBackendFolder(host);
  if (!folder) throw new BackendUrlError(l10n.t('no backend: give --backend file://FOLDER, set PULUMI_BACKEND_URL, or run in a folder above which one holds .pulumi/'));
  return withProject({ root: folder, url: `file://${folder}`, source: 'folder' });
}
