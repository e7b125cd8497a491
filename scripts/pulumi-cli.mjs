// The real Pulumi CLI, built from its Go module (tools/pulumi), for tests and scripts only: users of
// the extension need no Go. `ensurePulumi()` builds it on first use and caches it outside the work tree,
// keyed by Pulumi's version and a hash of the module's files; `hermeticEnv()` runs it offline.
//
// Concurrency: tests build it from several processes at once, so the build runs under a lock (a
// directory created atomically, stolen only when its owner is dead) and is installed by renaming a
// finished directory into place, never by writing into the final one.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PULUMI_MODULE = join(repoRoot, 'tools', 'pulumi');
/** The Pulumi release the module pins (go.mod requires pkg/v3 and sdk/v3 at this version). */
export const PULUMI_VERSION = readPinnedVersion();

function readPinnedVersion() {
  const goMod = readFileSync(join(PULUMI_MODULE, 'go.mod'), 'utf8');
  const match = /github\.com\/pulumi\/pulumi\/pkg\/v3 (v[0-9][^\s]*)/.exec(goMod);
  if (!match) throw new Error(`${join(PULUMI_MODULE, 'go.mod')} does not require github.com/pulumi/pulumi/pkg/v3`);
  return match[1];
}

/** The go command: on PATH, else the machine's /usr/local/go. */
export function goCommand() {
  const onPath = spawnSync('go', ['version'], { stdio: 'ignore' });
  if (onPath.status === 0) return 'go';
  if (existsSync('/usr/local/go/bin/go')) return '/usr/local/go/bin/go';
  return undefined;
}

/** Every file the binaries are built from, hashed, so an edit to the judge rebuilds it. */
function sourceKey() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      // The history generator (tools/pulumi/history) is built and keyed on its own: scripts/pulumi-histories.mjs.
      if (entry.isDirectory() && entry.name !== 'history') walk(path);
      else if (/\.(go|mod|sum)$/.test(entry.name)) hash.update(path.slice(PULUMI_MODULE.length)).update(readFileSync(path));
    }
  };
  walk(PULUMI_MODULE);
  return hash.digest('hex').slice(0, 16);
}

export function cacheRoot() {
  const base = process.env.QUOTA_STATE_PULUMI_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'quota-state', 'pulumi');
  return base;
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `body` holding the lock directory `lock`; a lock whose owner process is gone is taken over.
 * `onWait` runs once, when another process holds the lock and this one has to wait for it.
 */
export function withLock(lock, body, { onWait } = {}) {
  let waited = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'owner'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lock, 'owner'), 'utf8'));
      } catch {
        // The owner has created the directory but not yet written its pid: wait for it.
      }
      if (Number.isInteger(owner) && owner > 0 && !processAlive(owner)) rmSync(lock, { recursive: true, force: true });
      else {
        if (!waited) onWait?.();
        waited = true;
        sleep(250);
      }
    }
  }
  try {
    return body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function goBuild(go, args, log) {
  const env = {
    ...process.env,
    // Never download a toolchain, never change go.mod/go.sum: the committed module decides.
    GOTOOLCHAIN: 'local',
    GOFLAGS: '-mod=readonly -buildvcs=false',
  };
  const result = spawnSync(go, args, { cwd: PULUMI_MODULE, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(`go ${args.join(' ')} failed in ${PULUMI_MODULE}:\n${result.stderr || result.error?.message || ''}`.trim());
  }
  if (log) log(`built ${args[args.length - 1]}`);
}

/** The cache's name for this build: Pulumi's version and the hash of the module's files (`<cacheRoot()>/<key>`, its lock `<key>.lock`). */
export function pulumiBuildKey() {
  return `${PULUMI_VERSION}-${sourceKey()}`;
}

/**
 * Builds (once) and returns the paths of the pinned Pulumi CLI and the judge.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {{ pulumi: string, judge: string, version: string }}
 */
export function ensurePulumi(options = {}) {
  const key = pulumiBuildKey();
  const root = cacheRoot();
  const final = join(root, key);
  const binaries = { pulumi: join(final, 'pulumi'), judge: join(final, 'judge'), version: PULUMI_VERSION };
  if (existsSync(join(final, 'complete'))) return binaries;
  mkdirSync(root, { recursive: true });
  const lock = join(root, `${key}.lock`);
  const onWait = () => options.log?.(`waiting for another build of Pulumi ${PULUMI_VERSION} to finish (its lock: ${lock})`);
  const build = () => {
    if (existsSync(join(final, 'complete'))) return binaries;
    const go = goCommand();
    if (!go) throw new Error('Building the real Pulumi CLI needs Go (go on PATH or /usr/local/go/bin/go); see docs/development.md "Real Pulumi in the tests".');
    const staging = mkdtempSync(join(root, `${key}.building-`));
    try {
      options.log?.(`building Pulumi ${PULUMI_VERSION} from its Go module (first use; cached in ${root})`);
      const stamp = `-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=${PULUMI_VERSION}`;
      goBuild(go, ['build', '-trimpath', '-ldflags', `-s -w ${stamp}`, '-o', join(staging, 'pulumi'), 'github.com/pulumi/pulumi/pkg/v3/cmd/pulumi'], options.log);
      goBuild(go, ['build', '-trimpath', '-ldflags', '-s -w', '-o', join(staging, 'judge'), './judge'], options.log);
      writeFileSync(join(staging, 'complete'), `${PULUMI_VERSION}\n`);
      rmSync(final, { recursive: true, force: true });
      renameSync(staging, final);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return binaries;
  };
  return withLock(lock, build, { onWait });
}

/**
 * The environment the CLI runs in: every PULUMI_* variable of `base` passes through, but the home is a
 * fresh temporary folder, the update check is off, the backend is a `file://` URL (a temporary one when
 * none is given) and no proxy-less network path exists: HTTP(S) goes to a closed local port.
 * @returns {{ env: NodeJS.ProcessEnv, cleanup: () => void }}
 */
/** An `s3://` URL whose `endpoint` is this machine (127.0.0.1, ::1, localhost): a test's S3 server, not the network. */
export function isLoopbackBucket(url) {
  if (!url.startsWith('s3://')) return false;
  let endpoint;
  try {
    endpoint = new URL(url).searchParams.get('endpoint');
  } catch {
    return false;
  }
  if (!endpoint) return false;
  const host = (/^[a-z]+:\/\//i.test(endpoint) ? new URL(endpoint) : new URL(`http://${endpoint}`)).hostname;
  return host === '127.0.0.1' || host === '[::1]' || host === 'localhost';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', '::1', 'localhost']);

/**
 * A `postgres://` URL whose server is this machine: every host it or the environment may name (the
 * URL's host, `host=` and `hostaddr=` in its query, PGHOST and PGHOSTADDR) is loopback, a Unix socket
 * folder, or absent (lib/pq then connects to localhost).
 */
export function isLoopbackPostgres(url, env = {}) {
  if (!/^postgres:\/\//i.test(url)) return false;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const hosts = [parsed.hostname, ...parsed.searchParams.getAll('host'), ...parsed.searchParams.getAll('hostaddr'), env.PGHOST ?? '', env.PGHOSTADDR ?? ''];
  return hosts.flatMap((host) => host.split(',')).every((host) => host === '' || host.startsWith('/') || LOOPBACK_HOSTS.has(host.toLowerCase()));
}

/** The URL as an error may show it: a postgres:// password is dropped. */
const withoutPassword = (url) => url.replace(/^(postgres:\/\/[^:@/?#]*):[^@/?#]*@/i, '$1@').replace(/([?&])password=[^&]*/gi, '$1password=xxxxx');

/**
 * A `gs://` URL whose requests stay on this machine: gocloud sends every gs:// request to
 * STORAGE_EMULATOR_HOST when it is set (a test's fake-gcs-server), so that host must be loopback.
 */
function isLoopbackGcsBucket(url, base = process.env) {
  if (!/^gs:\/\//i.test(url)) return false;
  const emulator = base.STORAGE_EMULATOR_HOST;
  if (!emulator || emulator.includes('://')) return false;
  try {
    return LOOPBACK_HOSTS.has(new URL(`http://${emulator}`).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** What a loopback gs:// backend needs of the environment: the emulator's address and the credentials Pulumi insists on finding. */
function gcsEnv(base) {
  const names = ['STORAGE_EMULATOR_HOST', 'GOOGLE_CREDENTIALS', 'GOOGLE_OAUTH_ACCESS_TOKEN', 'GOOGLE_APPLICATION_CREDENTIALS'];
  return Object.fromEntries(names.filter((name) => base[name] !== undefined).map((name) => [name, base[name]]));
}

export function hermeticEnv(base = process.env) {
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-pulumi-'));
  const env = {};
  // EDITOR and VISUAL: `pulumi state edit` opens the editor they name (docs/state-surgery.md: `pulumi state edit` with VS Code as the editor).
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TERM', 'EDITOR', 'VISUAL']) if (base[name] !== undefined) env[name] = base[name];
  for (const [name, value] of Object.entries(base)) if (name.startsWith('PULUMI_') && value !== undefined) env[name] = value;
  const backend = env.PULUMI_BACKEND_URL;
  if (backend !== undefined && !backend.startsWith('file://') && !isLoopbackBucket(backend) && !isLoopbackPostgres(backend, base) && !isLoopbackGcsBucket(backend, base)) {
    rmSync(scratch, { recursive: true, force: true });
    throw new Error(
      `PULUMI_BACKEND_URL must be a file:// URL, an s3:// URL whose endpoint or a postgres:// URL whose server is on the loopback address, or a gs:// URL with STORAGE_EMULATOR_HOST on it, here (got "${withoutPassword(backend)}"): this Pulumi never uses the network`,
    );
  }
  // The connection settings of a loopback PostgreSQL server (the tests' own) reach Pulumi's lib/pq.
  if (backend !== undefined && isLoopbackPostgres(backend, base)) for (const [name, value] of Object.entries(base)) if (name.startsWith('PG') && value !== undefined) env[name] = value;
  if (backend !== undefined && isLoopbackGcsBucket(backend, base)) Object.assign(env, gcsEnv(base));
  // The credentials of a loopback S3 server (the tests' MinIO) reach Pulumi's AWS SDK.
  for (const [name, value] of Object.entries(base)) if (name.startsWith('AWS_') && value !== undefined) env[name] = value;
  if (backend === undefined) {
    mkdirSync(join(scratch, 'backend'));
    env.PULUMI_BACKEND_URL = `file://${join(scratch, 'backend')}`;
  }
  mkdirSync(join(scratch, 'home'));
  env.PULUMI_HOME = join(scratch, 'home');
  env.PULUMI_SKIP_UPDATE_CHECK = '1';
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = 'true';
  // Anything that still tried the network would fail at once on this closed port instead of leaving the machine.
  env.HTTPS_PROXY = env.HTTP_PROXY = env.https_proxy = env.http_proxy = 'http://127.0.0.1:9';
  env.NO_PROXY = env.no_proxy = '';
  return { env, cleanup: () => rmSync(scratch, { recursive: true, force: true }) };
}
