/**
 * Runs a CommonJS bundle with a V8 code cache: the compiled code of its last run, kept beside the
 * user's other caches, so that a start skips parsing and compiling the bundle again (most of a
 * start's own work). Node 20 has no `module.enableCompileCache`, so this is `vm.Script` with
 * `cachedData`, as Node's own snapshot tooling does.
 *
 * The cache is named by the bundle's SHA-256 and Node's version: another bundle or another V8 never
 * finds it. V8 itself rejects data made with other flags. A missing, rejected or unreadable cache
 * costs only the compile it would have saved; the bundle runs either way, and its cache is then
 * written once (at exit, or after a while for a long session), atomically.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** Where code caches go unless `QUOTA_STATE_CODE_CACHE_DIR` says: the user's cache folder, never a shared one. */
function defaultCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.QUOTA_STATE_CODE_CACHE_DIR === 'off') return undefined;
  if (env.QUOTA_STATE_CODE_CACHE_DIR) return env.QUOTA_STATE_CODE_CACHE_DIR;
  if (process.platform === 'win32') return env.LOCALAPPDATA ? join(env.LOCALAPPDATA, 'quota-state', 'code-cache') : undefined;
  const base = env.XDG_CACHE_HOME || (process.platform === 'darwin' ? join(homedir(), 'Library', 'Caches') : join(homedir(), '.cache'));
  return join(base, 'quota-state', 'code-cache');
}

/** Waits this long before writing a new cache in a process that keeps running (a language server). */
const WRITE_AFTER_MS = 10_000;

/** A cache that was used is written again only when this run compiled this much more (a fraction of its size). */
const REFRESH_GROWTH = 0.1;

export interface CodeCacheOptions {
  /** When a new cache is written at the latest. A worker thread is terminated without an `exit` event, so it passes a shorter time. */
  writeAfterMs?: number;
  /**
   * Also rewrite a cache that was used when this run compiled much more than it held. The language
   * server's first start caches one file kind's code; a later session that opens the other kind adds
   * its code then. Serialising costs ~20 ms, at exit or after `writeAfterMs`, never during a start.
   */
  refreshWhenGrown?: boolean;
}

export function runWithCodeCache(bundlePath: string, cacheDir = defaultCodeCacheDir(), options: CodeCacheOptions = {}): void {
  const { writeAfterMs = WRITE_AFTER_MS, refreshWhenGrown = false } = options;
  const bytes = readFileSync(bundlePath);
  // Our bundles are ASCII (a test keeps them so): read as Latin-1, a copy, instead of decoding UTF-8 (3 ms of a start).
  const source = Module.wrap(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8'));
  const cachePath = cacheDir ? join(cacheDir, `${basename(bundlePath, '.js')}-${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-${process.version}-${process.arch}.v8cache`) : undefined;
  const cachedData = cachePath ? readIfOwned(cachePath) : undefined;
  const script = new Script(source, { filename: bundlePath, cachedData });
  // A missing or rejected cache is written anew; one that was used only when it has grown.
  const used = cachedData && !script.cachedDataRejected ? cachedData.length : 0;
  if (cachePath && (used === 0 || refreshWhenGrown)) writeOnceLater(script, cachePath, writeAfterMs, used * (1 + REFRESH_GROWTH));
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: bundlePath, id: bundlePath, loaded: false };
  wrapper.call(module.exports, module.exports, createRequire(bundlePath), module, bundlePath, dirname(bundlePath));
}

/** The cache, if it is a regular file of this user's: a cache is code, so nobody else's is run. */
function readIfOwned(path: string): Buffer | undefined {
  try {
    const stat = statSync(path);
    if (!stat.isFile() || (process.getuid && stat.uid !== process.getuid())) return undefined;
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Writes the cache after the first work has run (its functions are compiled by then and so are
 * cached too): at exit, or after `writeAfterMs`, whichever comes first; only when it is larger than
 * `largerThan` bytes.
 */
function writeOnceLater(script: Script, cachePath: string, writeAfterMs: number, largerThan: number): void {
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    try {
      const data = script.createCachedData();
      if (data.length <= largerThan) return;
      const dir = dirname(cachePath);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temporary = `${cachePath}.${process.pid}.tmp`;
      writeFileSync(temporary, data, { mode: 0o600 });
      renameSync(temporary, cachePath);
      // Caches of earlier builds of the same bundle are never read again.
      const prefix = basename(cachePath).replace(/-[0-9a-f]{32}-.*$/, '-');
      for (const name of readdirSync(dir)) if (name.startsWith(prefix) && name.endsWith('.v8cache') && join(dir, name) !== cachePath) rmSync(join(dir, name), { force: true });
    } catch {
      // A cache that cannot be written only costs the next start its compile.
    }
  };
  process.once('exit', write);
  setTimeout(write, writeAfterMs).unref();
}
