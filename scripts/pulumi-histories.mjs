// Real Pulumi DIY backends with a history, made by real Pulumi: tools/pulumi/history drives the pinned
// CLI through the Automation API (a fixed script of updates to components and a provider's custom
// resources, a refresh, a failed update, secrets, a destroy, an interrupted update) in each layout and
// compression. Built and generated once per machine, cached beside the
// Pulumi build (keyed by the tool's sources and the Pulumi version), under a lock: test processes may
// ask at once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cacheRoot, ensurePulumi, goCommand, hermeticEnv, PULUMI_MODULE, PULUMI_VERSION, withLock } from './pulumi-cli.mjs';

/** Each generated backend: its layout (project, or legacy: bare stack names) and the compression of its files. */
export const HISTORY_VARIANTS = [
  { layout: 'project', compression: 'plain' },
  { layout: 'project', compression: 'gzip' },
  { layout: 'project', compression: 'zstd' },
  { layout: 'legacy', compression: 'plain' },
];

function historyKey() {
  const hash = createHash('sha256').update(PULUMI_VERSION);
  const sources = readdirSync(join(PULUMI_MODULE, 'history'))
    .filter((name) => name.endsWith('.go'))
    .sort()
    .map((name) => `history/${name}`);
  for (const file of [...sources, 'go.mod', 'go.sum']) hash.update(file).update(readFileSync(join(PULUMI_MODULE, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The generated backends, each a folder holding `.pulumi/` (generated on first use).
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {{ pulumi: string, backends: Array<{ layout: string, compression: string, folder: string, stack: string }> }}
 */
export function ensureHistories(options = {}) {
  const { pulumi } = ensurePulumi(options);
  const root = join(cacheRoot(), 'histories', historyKey());
  const backends = HISTORY_VARIANTS.map((variant) => ({
    ...variant,
    folder: join(root, `${variant.layout}-${variant.compression}`),
    stack: variant.layout === 'legacy' ? 'dev' : 'organization/hist/dev',
  }));
  if (backends.every((b) => existsSync(join(b.folder, 'complete')))) return { pulumi, backends };
  mkdirSync(root, { recursive: true });
  withLock(`${root}.lock`, () => {
    const tool = join(root, 'history-tool');
    if (!existsSync(tool)) build(tool, options.log);
    // The tool is also the hist resource provider when run under the plugin's name; the engine finds it on PATH.
    const plugins = join(root, 'plugins');
    if (!existsSync(join(plugins, 'pulumi-resource-hist'))) {
      mkdirSync(plugins, { recursive: true });
      symlinkSync(tool, join(plugins, 'pulumi-resource-hist'));
    }
    for (const backend of backends) if (!existsSync(join(backend.folder, 'complete'))) generate(tool, plugins, pulumi, backend, options.log);
  });
  return { pulumi, backends };
}

function build(tool, log) {
  const go = goCommand();
  if (!go) throw new Error('Generating real Pulumi histories needs Go (go on PATH or /usr/local/go/bin/go)');
  log?.('building tools/pulumi/history (first use)');
  const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=readonly -buildvcs=false' };
  const result = spawnSync(go, ['build', '-trimpath', '-ldflags', '-s -w', '-o', tool, './history'], { cwd: PULUMI_MODULE, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`go build ./history failed in ${PULUMI_MODULE}:\n${result.stderr || result.error?.message || ''}`);
}

function generate(tool, plugins, pulumi, backend, log) {
  log?.(`generating a real ${backend.layout} ${backend.compression} history with Pulumi ${PULUMI_VERSION}`);
  const staging = mkdtempSync(`${backend.folder}.generating-`);
  const { env, cleanup } = hermeticEnv();
  try {
    env.PATH = `${dirname(pulumi)}:${plugins}:${env.PATH ?? ''}`;
    env.PULUMI_BACKEND_URL = `file://${staging}`;
    env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK = '1';
    const result = spawnSync(tool, [staging, backend.layout, backend.compression], { env, encoding: 'utf8', timeout: 10 * 60 * 1000 });
    if (result.status !== 0) throw new Error(`tools/pulumi/history ${backend.layout} ${backend.compression} failed:\n${result.stderr || result.error?.message || ''}`);
    writeFileSync(join(staging, 'complete'), `${PULUMI_VERSION}\n`);
    rmSync(backend.folder, { recursive: true, force: true });
    renameSync(staging, backend.folder);
  } finally {
    cleanup();
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * The same history made by real Pulumi in a bucket (`s3://…` on the tests' loopback MinIO), not
 * cached: the bucket lives as long as its server. `env` carries the S3 credentials (AWS_*).
 * @param {string} url
 * @param {{ env: Record<string, string>, layout?: string, compression?: string, log?: (line: string) => void }} options
 * @returns {{ pulumi: string, stack: string }}
 */
export function generateHistoryInBucket(url, options) {
  const layout = options.layout ?? 'project';
  const compression = options.compression ?? 'plain';
  options.log?.(`generating a real ${layout} ${compression} history in ${url.replace(/\?.*$/, '')}`);
  return runHistoryTool(url, [layout, compression], options);
}

/**
 * One more real `pulumi up` of the history's program (its last succeeded step) on the stack the
 * backend at `url` already holds (a folder's `file://` URL or a remote one): the generator's update on
 * a backend the stack was copied or moved to. Throws with Pulumi's output when the update fails.
 * @param {string} url
 * @param {{ env?: Record<string, string>, layout?: string, compression?: string, log?: (line: string) => void }} [options]
 * @returns {{ pulumi: string, stack: string }}
 */
export function upHistoryOnce(url, options = {}) {
  options.log?.(`a real pulumi up of the history's program on ${url.replace(/\?.*$/, '')}`);
  return runHistoryTool(url, [options.layout ?? 'project', options.compression ?? 'plain', 'up'], options);
}

/** tools/pulumi/history with `args` after the backend's URL, offline, the pinned CLI and the hist provider on PATH. */
function runHistoryTool(url, args, options) {
  const { pulumi, backends } = ensureHistories(options);
  const root = dirname(backends[0].folder);
  const { env, cleanup } = hermeticEnv({ ...process.env, ...options.env, PULUMI_BACKEND_URL: url });
  try {
    env.PATH = `${dirname(pulumi)}:${join(root, 'plugins')}:${env.PATH ?? ''}`;
    env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK = '1';
    const result = spawnSync(join(root, 'history-tool'), [url, ...args], { env, encoding: 'utf8', timeout: 10 * 60 * 1000 });
    if (result.status !== 0) throw new Error(`tools/pulumi/history ${args.join(' ')} in ${url.replace(/\?.*$/, '')} failed:\n${result.stderr || result.error?.message || ''}`);
  } finally {
    cleanup();
  }
  return { pulumi, stack: args[0] === 'legacy' ? 'dev' : 'organization/hist/dev' };
}
