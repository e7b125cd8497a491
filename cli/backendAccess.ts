/**
 * A DIY backend as the CLI's commands open it: found in Pulumi's order (shared/backend/url.ts, given
 * this machine's files and environment), read as a `file://` store (shared/node/fileStore.ts) or a
 * bucket within the inflate limit, and a stack's state read from it: its current file, or a history
 * entry's checkpoint by version or id.
 */
import {
  createBackendService,
  readBytes,
  BackendError,
  backendFolderProblem,
  BackendUrlError,
  findStack,
  objectUrl,
  resolveBackendUrl,
  StoreError,
  type Backend,
  type BackendStack,
  type ResolvedBackendUrl,
} from '../shared/backend';
import { decodeFile, InflateBudgetError, type InflateBudget } from '../shared/text/inflate';
import { InputError } from './args';
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { WritableBackendStore } from '../shared/backend';
import { fileBackendStore } from '../shared/node/fileStore';
import { openRemoteStore, remoteTimeoutMs } from '../shared/node/remoteStore';
import { inflateBudget, maxInflatedBytes, type CliIO } from './io';

const backends = createBackendService();

export interface Opened {
  backend: Backend;
  store: WritableBackendStore;
  /** The backend's folder on this machine; undefined for a bucket. */
  root?: string;
  project?: string;
  maxInflatedBytes: number;
  /** What the command may decompress across every file it reads (one per command). */
  budget?: InflateBudget;
}

/** The store of a resolved backend: a folder's, or a remote backend's (its SDK loaded only then). */
function storeOf(resolved: ResolvedBackendUrl): WritableBackendStore {
  if (!resolved.remote) return fileBackendStore(resolved.root!, resolved.url);
  return openRemoteStore(resolved.remote, { timeoutMs: remoteTimeoutMs() });
}

/** The backend `flag` names, or Pulumi's order finds from `cwd`; a URL quota-state does not read is an InputError. */
async function resolveBackend(flag: string | undefined, cwd: string): Promise<ResolvedBackendUrl> {
  try {
    return await resolveBackendUrl(flag, {
      cwd,
      env: process.env,
      home: homedir(),
      path: { dirname, isAbsolute, join, resolve },
      readText: async (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
      exists: async (file) => existsSync(file),
    });
  } catch (error) {
    if (error instanceof BackendUrlError) throw new InputError(error.message);
    throw error;
  }
}

/** The project and name a fully named stack reference gives (`organization/p/s`, `p/s`); undefined for a bare name. */
export function scopeOf(reference: string): { project: string; name: string } | undefined {
  const parts = reference.split('/');
  if (parts.length === 3 && parts[0] === 'organization') return { project: parts[1], name: parts[2] };
  if (parts.length === 2) return { project: parts[0], name: parts[1] };
  return undefined;
}

function folderProblem(root: string): 'missing' | 'file' | undefined {
  try {
    return statSync(root).isDirectory() ? undefined : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'missing' : undefined;
  }
}

/** The paths where a stack without a stack file has a folder by a stack file's name (`dev.json/`): said, with the path, instead of just "no stack file". */
function stackFilesThatAreFolders(root: string, stacks: BackendStack[]): string[] {
  return stacks
    .filter((stack) => !stack.file)
    .flatMap((stack) => ['.json', '.json.gz', '.json.zst'].map((suffix) => join(root, '.pulumi', 'stacks', ...(stack.project ? [stack.project] : []), `${stack.name}${suffix}`)))
    .filter((path) => {
      try {
        return lstatSync(path).isDirectory();
      } catch {
        return false;
      }
    });
}

/** The versions present, as ranges: `1, 2, 4–6` (an entry that cannot be read leaves a gap). */
function versionRanges(versions: number[]): string {
  const sorted = [...new Set(versions)].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    ranges.push(j - i >= 2 ? `${sorted[i]}–${sorted[j]}` : sorted.slice(i, j + 1).join(', '));
    i = j + 1;
  }
  return ranges.join(', ');
}

/**
 * Resolves and reads the backend; a missing one is exit 1 (said on stderr), an unreadable one exit
 * 2. With `only`, just that stack when it can (a command on one stack of a big bucket lists its
 * files, not the bucket's).
 */
export async function openBackend(flag: string | undefined, io: CliIO, only?: { project: string; name: string }): Promise<Opened | number> {
  const resolved = await resolveBackend(flag, io.cwd);
  // A folder that is missing or a file is said so, in the Backends view's words, not as "no .pulumi folder".
  const problem = resolved.root === undefined ? undefined : folderProblem(resolved.root);
  if (problem) {
    io.stderr(`quota-state: ${backendFolderProblem(resolved.root!, problem)}`);
    return 1;
  }
  const store = storeOf(resolved);
  const maxBytes = maxInflatedBytes();
  const budget = inflateBudget(io);
  try {
    const backend = await backends.read(store, { maxInflatedBytes: maxBytes, budget, only });
    // Pulumi v3.257 and later refuse this layout (#19566) unless told to ignore the deprecation; say what they will do.
    if (backend.layout === 'legacy' && backend.stacks.length > 0 && !process.env.PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR) {
      io.stderr(
        `warning: ${backend.url} has the legacy layout, which Pulumi refuses since v3.257 unless PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR is set; \`quota-state backend upgrade\` moves it to the project layout`,
      );
    }
    if (resolved.root) for (const folder of stackFilesThatAreFolders(resolved.root, backend.stacks)) io.stderr(`warning: ${folder} is a folder, not a stack file: Pulumi reads no stack file there`);
    return { backend, store, root: resolved.root, project: resolved.project, maxInflatedBytes: maxBytes, budget };
  } catch (error) {
    if (error instanceof StoreError || error instanceof InflateBudgetError) throw new InputError(error.message);
    if (!(error instanceof BackendError)) throw error;
    if (error.missing) {
      io.stderr(`quota-state: ${error.message}`);
      return 1;
    }
    throw new InputError(error.message);
  }
}

/**
 * A copy's destination: the backend `url` names, read when it is one (`backend` undefined when it has
 * no `.pulumi/` yet, a folder made when it is missing). An unreadable one is an InputError.
 */
export async function openDestination(url: string, io: CliIO): Promise<{ store: WritableBackendStore; backend?: Backend; root?: string }> {
  const resolved = await resolveBackend(url, io.cwd);
  if (resolved.root !== undefined && folderProblem(resolved.root) === 'missing') mkdirSync(resolved.root, { recursive: true });
  if (resolved.root !== undefined && folderProblem(resolved.root) === 'file') throw new InputError(backendFolderProblem(resolved.root, 'file'));
  const store = storeOf(resolved);
  try {
    return { store, root: resolved.root, backend: await backends.read(store, { maxInflatedBytes: maxInflatedBytes(), budget: inflateBudget(io) }) };
  } catch (error) {
    if (error instanceof BackendError && error.missing) return { store, root: resolved.root };
    if (error instanceof StoreError || error instanceof BackendError || error instanceof InflateBudgetError) throw new InputError(error.message);
    throw error;
  }
}

/** The stack `reference` names in the opened backend; or, said on stderr, exit 1 naming the stacks there are. */
export function openStack(opened: Opened, reference: string, io: CliIO): BackendStack | 1 {
  const stack = findStack(opened.backend, reference, opened.project);
  if (stack) return stack;
  io.stderr(`quota-state: no stack "${reference}" in ${opened.backend.url} (its stacks: ${opened.backend.stacks.map((s) => s.ref).join(', ') || 'none'})`);
  return 1;
}

/**
 * A state of the stack `reference` in the backend (`flag`, else as `backend ls` finds it): see
 * `readStackState`. Answers the exit code after saying why not (1: no such backend, stack or version).
 */
export async function readStackText(reference: string, flag: string | undefined, io: CliIO, revision?: string): Promise<{ text: string; display: string } | number> {
  const opened = await openBackend(flag, io, scopeOf(reference));
  if (typeof opened === 'number') return opened;
  const stack = openStack(opened, reference, io);
  return stack === 1 ? 1 : readStackState(opened, stack, io, revision);
}

/**
 * A state of `stack`, inflated within the limit: its current stack file, or with `revision` the
 * checkpoint of a history entry, named by our version number (1 for the oldest) or by its id
 * (`<UnixNano>`). Answers the text and how messages name it; or exit 1 after saying why not.
 */
export async function readStackState(opened: Opened, stack: BackendStack, io: CliIO, revision?: string): Promise<{ text: string; display: string } | number> {
  let name: string | undefined = stack.file?.name;
  if (revision !== undefined) {
    const { entries } = await backends.history(opened.store, stack, { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget });
    // A <UnixNano> id has 19 digits; our version numbers count the entries present.
    const entry = revision.length >= 10 ? entries.find((e) => e.id === revision) : entries.find((e) => String(e.version) === revision);
    if (!entry) {
      const range = entries.length ? `its versions: ${versionRanges(entries.map((e) => e.version))}, or an id such as ${entries[0].id}` : 'it has no history';
      io.stderr(`quota-state: no version "${revision}" of ${stack.ref} in ${opened.backend.url} (${range})`);
      return 1;
    }
    if (!entry.checkpoint) {
      io.stderr(`quota-state: version ${entry.version} of ${stack.ref} has lost its checkpoint (${entry.file} has no .checkpoint.json beside it)`);
      return 1;
    }
    name = entry.checkpoint;
  } else if (!name) {
    io.stderr(`quota-state: the stack "${stack.ref}" in ${opened.backend.url} has no stack file (only history or backups)`);
    return 1;
  }
  const display = objectUrl(opened.backend.url, name);
  try {
    return { text: decodeFile(await readBytes(opened.store, name), { name: display, maxBytes: opened.maxInflatedBytes, budget: opened.budget }).text, display };
  } catch (error) {
    throw new InputError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * A test's crash: after this many writes and deletes through the store the process kills itself
 * (QUOTA_STATE_TEST_KILL_AFTER_WRITES), as a power cut would stop it. `backend copy` (DST's store),
 * `stack rm` and `stack rename` run through it; unset, the store is the same.
 */
export function killingAfterWrites(store: WritableBackendStore, env: NodeJS.ProcessEnv): WritableBackendStore {
  const limit = Number(env.QUOTA_STATE_TEST_KILL_AFTER_WRITES);
  if (!Number.isInteger(limit) || limit < 1) return store;
  let writes = 0;
  const counted = () => {
    if (++writes >= limit) process.kill(process.pid, 'SIGKILL');
  };
  return {
    url: store.url,
    listPage: store.listPage.bind(store),
    read: store.read.bind(store),
    async delete(name: string) {
      await store.delete(name);
      counted();
    },
    async write(name: string, bytes: Uint8Array, options?: { ifVersion?: string | null }) {
      await store.write(name, bytes, options);
      counted();
    },
  };
}
