// What every real test server of the suite shares (MinIO, Azurite, fake-gcs-server, PostgreSQL): the
// cached build of a server from its pinned Go module, free ports, the tail of a server's output for
// error messages, a stop that never leaves a process or a folder behind, and the Ctrl-C handling of
// `npm run <server>`. Each server's own script keeps only its command line and its readiness check.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { goCommand, withLock } from './pulumi-cli.mjs';

const OUTPUT_TAIL_CHARS = 8_000;

export const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/**
 * A server built from the Go module in `moduleDir`, which requires `modulePath` at a pinned version:
 * built on first use with the machine's own Go (never a downloaded toolchain, never a changed go.mod),
 * cached outside the work tree under `<cache>/<version>-<hash of go.mod and go.sum>/<binaryName>`,
 * one build at a time across processes.
 * @param {{ label: string, moduleDir: string, modulePath: string, binaryName: string, cacheVariable: string, cacheFolder: string, note: string }} spec
 */
export function goServerBuild(spec) {
  const goModPath = join(spec.moduleDir, 'go.mod');
  const escaped = spec.modulePath.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = new RegExp(`${escaped} (v[0-9][^\\s]*)`).exec(readFileSync(goModPath, 'utf8'));
  if (!match) throw new Error(`${goModPath} does not require ${spec.modulePath}`);
  const version = match[1];
  const cacheRoot = () => process.env[spec.cacheVariable] ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'quota-state', spec.cacheFolder);
  /** go.mod and go.sum decide the build, so an edit to either rebuilds the server. */
  const sourceKey = () => {
    const hash = createHash('sha256');
    for (const name of ['go.mod', 'go.sum']) hash.update(name).update(readFileSync(join(spec.moduleDir, name)));
    return hash.digest('hex').slice(0, 16);
  };
  const build = (go, output, log) => {
    const env = {
      ...process.env,
      // The machine's Go lives in /usr/local/go/bin, which a non-login shell may not have on PATH.
      PATH: [process.env.PATH, '/usr/local/go/bin'].filter(Boolean).join(delimiter),
      GOTOOLCHAIN: 'local',
      GOFLAGS: '-mod=readonly -buildvcs=false',
    };
    const args = ['build', '-trimpath', '-ldflags', '-s -w', '-o', output, spec.modulePath];
    const started = Date.now();
    const result = spawnSync(go, args, { cwd: spec.moduleDir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0) {
      const detail = (result.stderr || result.error?.message || `exit status ${result.status}`).slice(-OUTPUT_TAIL_CHARS);
      throw new Error(`go ${args.join(' ')} failed in ${spec.moduleDir}:\n${detail}`.trim());
    }
    log?.(`built ${spec.label} in ${Math.round((Date.now() - started) / 1000)} s`);
  };
  /**
   * Builds (once) and returns the absolute path of the server's binary.
   * @param {{ log?: (line: string) => void }} [options]
   */
  const ensure = (options = {}) => {
    const key = `${version}-${sourceKey()}`;
    const root = cacheRoot();
    const binary = join(root, key, spec.binaryName);
    if (existsSync(binary)) return binary;
    mkdirSync(join(root, key), { recursive: true });
    // Tests may start servers from several processes at once: one builds, the others wait for it.
    return withLock(join(root, `${key}.lock`), () => {
      if (existsSync(binary)) return binary;
      const go = goCommand();
      if (!go) throw new Error(`Building ${spec.label} (${spec.note}) needs Go: go on PATH or /usr/local/go/bin/go.`);
      // Built under a temporary name and renamed into place, so an interrupted build never leaves a broken binary.
      const staging = `${binary}.building-${process.pid}`;
      try {
        options.log?.(`building ${spec.label} ${version} from its Go module (first use, a few minutes; cached in ${root})`);
        build(go, staging, options.log);
        renameSync(staging, binary);
      } finally {
        rmSync(staging, { force: true });
      }
      return binary;
    });
  };
  return { version, cacheRoot, ensure };
}

/** `count` distinct free local ports: every listener stays open until all the ports are known. */
export async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise((resolveListen, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolveListen);
      });
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolveClose) => server.close(() => resolveClose()))));
  }
}

/** A free local port (the listener is closed before the server takes it). */
export const freePort = async () => (await freePorts(1))[0];

/** Keeps the last few thousand characters of a stream, for error messages. */
export function tailCollector(stream) {
  let tail = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARS);
  });
  return () => tail.trim() || '(nothing)';
}

/** Runs the command so that, on Linux, the kernel kills it if this process dies without running its 'exit' handlers (a signal, SIGKILL). */
export function withParentDeathSignal(command, args) {
  if (process.platform === 'linux' && existsSync('/usr/bin/setpriv')) return ['/usr/bin/setpriv', ['--pdeathsig', 'KILL', '--', command, ...args]];
  return [command, args];
}

/** Ends a child: `signal` (SIGTERM by default), then SIGKILL after `graceMs`; resolves once it has exited. */
export async function endChild(child, exited, { signal = 'SIGTERM', graceMs = 5_000 } = {}) {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill(signal);
    const graceOver = Symbol('grace over');
    let graceTimer;
    const outcome = await Promise.race([exited, new Promise((resolveGrace) => (graceTimer = setTimeout(() => resolveGrace(graceOver), graceMs)))]);
    clearTimeout(graceTimer);
    if (outcome === graceOver) child.kill('SIGKILL');
  }
  await exited;
}

/** stop(): endChild, then the scratch folder goes and the exit hook is dropped; safe to call twice. */
export function stopper(child, exited, scratch, killOnExit) {
  let stopping;
  return () => {
    stopping ??= (async () => {
      await endChild(child, exited);
      process.removeListener('exit', killOnExit);
      rmSync(scratch, { recursive: true, force: true });
    })();
    return stopping;
  };
}

/** `npm run <server>`: keeps `server` up until Ctrl-C (or SIGTERM), then stops it; a second Ctrl-C exits at once. */
export function serveUntilInterrupted(server, label, log) {
  let stopping = false;
  const shutdown = (signal) => {
    // The 'exit' handler of the server's start still kills it.
    if (stopping) process.exit(130);
    stopping = true;
    log(`${signal}: stopping ${label}`);
    server.stop().then(
      () => process.exit(0),
      (error) => {
        log(error.message);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** Runs `main` when the module at `moduleUrl` is the script node was started with (argv[1], possibly through a symlink). */
export function runAsScript(moduleUrl, main) {
  if (process.argv[1] && moduleUrl === pathToFileURL(realpathSync(process.argv[1])).href) {
    main().catch((error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    });
  }
}
