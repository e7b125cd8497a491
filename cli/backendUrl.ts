/**
 * Which DIY backend a command reads, in Pulumi's order: `--backend URL`, `PULUMI_BACKEND_URL`, the
 * project's `Pulumi.yaml` `backend.url`, the current backend of `~/.pulumi/credentials.json`; then,
 * ours, the nearest folder above the working directory holding `.pulumi/meta.yaml` or
 * `.pulumi/stacks/`. `~/.pulumi` is a backend only when named, as `file://~` names it. Only
 * `file://` backends are read here; Pulumi Cloud and object storage are refused, saying so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isObjectStorageUrl, parseS3BackendUrl, S3UrlError, type S3BackendUrl } from '../shared/backend/vocabulary';
import { InputError } from './args';

export interface ResolvedBackend {
  /** The folder holding `.pulumi/` (a `file://` backend). */
  root?: string;
  /** The bucket (an `s3://` backend), its URL read as Pulumi reads it. */
  bucket?: S3BackendUrl;
  /** The URL as Pulumi would name it (`file:///srv/state`). */
  url: string;
  /** Where it came from, for messages. */
  source: 'flag' | 'env' | 'project' | 'credentials' | 'folder';
  /** The project of the nearest `Pulumi.yaml` (bare stack names take it). */
  project?: string;
}

interface Environment {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/** The nearest `Pulumi.yaml` (or `.yml`) at or above `cwd`, read; undefined when there is none. */
export function projectFile(cwd: string): { path: string; value: Record<string, unknown> } | undefined {
  for (let folder = cwd; ; folder = dirname(folder)) {
    for (const name of ['Pulumi.yaml', 'Pulumi.yml']) {
      const path = join(folder, name);
      if (!existsSync(path)) continue;
      let value: unknown;
      try {
        value = parseYaml(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new InputError(`${path}: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
      return { path, value: typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {} };
    }
    if (dirname(folder) === folder) return undefined;
  }
}

function currentFromCredentials(home: string): string | undefined {
  try {
    const credentials = JSON.parse(readFileSync(join(home, '.pulumi', 'credentials.json'), 'utf8')) as { current?: unknown };
    return typeof credentials.current === 'string' && credentials.current !== '' ? credentials.current : undefined;
  } catch {
    return undefined;
  }
}

/** A backend URL's folder: `file://~/x`, `file:///abs`, `file://relative` (against `cwd`). */
function folderOfUrl(url: string, cwd: string, home: string): string {
  if (/^https?:\/\//.test(url)) throw new InputError(`${url} is a Pulumi Cloud backend; quota-state reads DIY backends only (file://…)`);
  if (!url.includes('://')) throw new InputError(`"${url}" is not a backend URL; a folder is named file://${resolve(cwd, url)}`);
  if (!url.startsWith('file://')) {
    const scheme = url.slice(0, url.indexOf('://'));
    throw new InputError(`${url}: ${scheme}:// backends are not read; quota-state reads file:// and s3:// backends`);
  }
  let rest: string;
  try {
    rest = decodeURIComponent(url.slice('file://'.length).replace(/\?.*$/, ''));
  } catch {
    throw new InputError(`${url} is not a valid file:// URL (a % not followed by two hex digits)`);
  }
  if (rest === '~' || rest.startsWith('~/')) return join(home, rest.slice(1));
  return isAbsolute(rest) ? rest : resolve(cwd, rest);
}

/** The nearest folder at or above `cwd` that holds a backend, never the home folder's `.pulumi` (plugins and credentials). */
function nearestBackendFolder(cwd: string, home: string): string | undefined {
  for (let folder = cwd; ; folder = dirname(folder)) {
    const holds = existsSync(join(folder, '.pulumi', 'meta.yaml')) || existsSync(join(folder, '.pulumi', 'stacks'));
    if (holds && resolve(folder) !== resolve(home)) return folder;
    if (dirname(folder) === folder) return undefined;
  }
}

export function resolveBackend(flag: string | undefined, { cwd, env, home = homedir() }: Environment): ResolvedBackend {
  const project = projectFile(cwd);
  const projectName = typeof project?.value.name === 'string' ? project.value.name : undefined;
  const backendOfProject = project?.value.backend as { url?: unknown } | undefined;
  const named: Array<[ResolvedBackend['source'], string | undefined]> = [
    ['flag', flag],
    ['env', env.PULUMI_BACKEND_URL || undefined],
    ['project', typeof backendOfProject?.url === 'string' ? backendOfProject.url : undefined],
    ['credentials', currentFromCredentials(home)],
  ];
  for (const [source, url] of named) {
    if (url === undefined) continue;
    if (isObjectStorageUrl(url)) {
      try {
        return { bucket: parseS3BackendUrl(url, { AWS_REQUEST_CHECKSUM_CALCULATION: env.AWS_REQUEST_CHECKSUM_CALCULATION }), url, source, ...(projectName ? { project: projectName } : {}) };
      } catch (error) {
        if (error instanceof S3UrlError) throw new InputError(error.message);
        throw error;
      }
    }
    const root = folderOfUrl(url, source === 'project' ? dirname(project!.path) : cwd, home);
    return { root, url, source, ...(projectName ? { project: projectName } : {}) };
  }
  const folder = nearestBackendFolder(cwd, home);
  if (!folder) {
    throw new InputError('no backend: give --backend file://FOLDER, set PULUMI_BACKEND_URL, or run in a folder above which one holds .pulumi/');
  }
  return { root: folder, url: `file://${folder}`, source: 'folder', ...(projectName ? { project: projectName } : {}) };
}
