/**
 * Test harness: runs the built reference server (`dist/quota-api/main.js`, built by
 * `node esbuild.mjs`) as a child process on 127.0.0.1 with a free port, and talks to it
 * over real HTTP with `fetch`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
export const SERVER_MAIN = path.join(ROOT, 'dist/quota-api/main.js');
export const DEMO_SEED = path.join(ROOT, 'examples/demo.quota.jsonc');

export const DEMO_TOKENS = {
  root: 'demo-root-token',
  alice: 'demo-alice-token',
  bob: 'demo-bob-token',
  carol: 'demo-carol-token',
} as const;

export interface RunningServer {
  /** `http://127.0.0.1:PORT/api/v1` as the server printed it. */
  baseUrl: string;
  child: ChildProcess;
  /** Everything written to stderr so far (the JSON request log). */
  stderr(): string;
  /** SIGTERM and wait for exit; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

export function assertBuilt(): void {
  if (!fs.existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run \`node esbuild.mjs\` first`);
}

export function tempDir(prefix = 'quota-api-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function writeTempFile(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, text);
  return file;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the server's CLI to completion (e.g. `token create`). */
export function runCli(args: string[]): Promise<RunResult> {
  assertBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVER_MAIN, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the server; resolves once it printed its base URL. Defaults: in-memory DB, demo seed. */
export function startServer(options: { db?: string; seed?: string | null; args?: string[] } = {}): Promise<RunningServer> {
  assertBuilt();
  const args = [SERVER_MAIN, '--host', '127.0.0.1', '--port', '0', '--db', options.db ?? ':memory:'];
  const seed = options.seed === undefined ? DEMO_SEED : options.seed;
  if (seed !== null) args.push('--seed', seed);
  args.push(...(options.args ?? []));
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      stdout += chunk.toString();
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({
        baseUrl: stdout.slice(0, newline).trim(),
        child,
        stderr: () => stderr,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    exited.then((code) => reject(new Error(`quota-api exited with ${code} before listening:\n${stderr}`)));
  });
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the body is JSON, else the text ('' for no body). */
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  /** JSON-encoded unless `raw` is given. */
  json?: unknown;
  /** Sent as is, with `contentType` (default application/json). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function request<T = unknown>(baseUrl: string, method: string, pathAndQuery: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers.authorization = `token ${options.token}`;
  let body: string | Buffer | undefined;
  if (options.raw !== undefined) {
    body = options.raw;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = options.contentType ?? 'application/json';
  }
  const response = await fetch(baseUrl + pathAndQuery, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** A client bound to a server and a token. */
export function client(baseUrl: string, token?: string) {
  const call = <T = unknown>(method: string, p: string, options: Omit<RequestOptions, 'token'> = {}) => request<T>(baseUrl, method, p, { token, ...options });
  return {
    get: <T = unknown>(p: string, o?: Omit<RequestOptions, 'token'>) => call<T>('GET', p, o),
    post: <T = unknown>(p: string, json?: unknown, o?: Omit<RequestOptions, 'token'>) => call<T>('POST', p, { json, ...o }),
    patch: <T = unknown>(p: string, json?: unknown, o?: Omit<RequestOptions, 'token'>) => call<T>('PATCH', p, { json, ...o }),
    put: <T = unknown>(p: string, o?: Omit<RequestOptions, 'token'>) => call<T>('PUT', p, o),
    delete: <T = unknown>(p: string, o?: Omit<RequestOptions, 'token'>) => call<T>('DELETE', p, o),
  };
}

/** Asserts the Forgejo error shape and returns the message. */
export function errorMessage(response: ApiResponse): string {
  const body = response.body as { message?: unknown; url?: unknown };
  if (typeof body !== 'object' || body === null || typeof body.message !== 'string' || typeof body.url !== 'string') {
    throw new Error(`expected a {"message","url"} error body with status ${response.status}, got: ${response.text}`);
  }
  if (!body.url.endsWith('/api/swagger')) throw new Error(`error url should point at the API docs, got ${body.url}`);
  return body.message;
}
