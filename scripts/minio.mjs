#!/usr/bin/env node
// A real S3 server for tests only: MinIO, built from its Go module (tools/minio) like the Pulumi CLI
// (pulumi-cli.mjs). MinIO is AGPL-3.0, so it stays test tooling and never ships with the extension.
// `ensureMinio()` builds it on first use and caches it outside the work tree, keyed by MinIO's version
// and a hash of go.mod/go.sum; `startMinio()` runs one throwaway server on free local ports.
//
// `npm run minio` (or `node scripts/minio.mjs`) starts a server, creates a bucket, prints the endpoint,
// credentials and environment to use, and stays up until Ctrl-C.
import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePorts, goServerBuild, runAsScript, serveUntilInterrupted, sleep, stopper, tailCollector, withParentDeathSignal } from './testServer.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MINIO_MODULE = join(repoRoot, 'tools', 'minio');
const minioBuild = goServerBuild({
  label: 'MinIO',
  moduleDir: MINIO_MODULE,
  modulePath: 'github.com/minio/minio',
  binaryName: 'minio',
  cacheVariable: 'QUOTA_STATE_MINIO_CACHE',
  cacheFolder: 'minio',
  note: 'the test S3 server',
});
/** The MinIO commit the module pins (a pseudo-version: MinIO publishes no semver tags to the Go proxy). */
export const MINIO_VERSION = minioBuild.version;
export const minioCacheRoot = minioBuild.cacheRoot;
/**
 * Builds (once) and returns the absolute path of the pinned MinIO server binary.
 * @type {(options?: { log?: (line: string) => void }) => string}
 */
export const ensureMinio = minioBuild.ensure;
export const MINIO_REGION = 'us-east-1';
/** Fixed test-only credentials: the server only listens on 127.0.0.1 and lives as long as its test. */
export const MINIO_TEST_ACCESS_KEY = 'quota-state-test';
export const MINIO_TEST_SECRET_KEY = 'quota-state-test-secret';

const HEALTH_TIMEOUT_MS = 30_000;
const EMPTY_PAYLOAD_SHA256 = createHash('sha256').update('').digest('hex');

/** One HTTP(S) request with a buffered body; node:http rather than fetch so the signed Host header is exactly what is sent. */
function send(url, { method = 'GET', headers = {}, body = '', timeoutMs = 10_000 } = {}) {
  const target = new URL(url);
  const requestFn = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolveResponse, reject) => {
    const req = requestFn(target, { method, headers, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Waits until the server answers its liveness check with its object layer up: MinIO answers /live with
 * 200 as soon as it listens, but marks "x-minio-server-status: offline" until it can serve S3 calls.
 */
async function waitForHealthy(endpoint, child, stderrTail, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`MinIO exited during startup (${child.exitCode ?? child.signalCode}):\n${stderrTail()}`);
    }
    try {
      const response = await send(`${endpoint}/minio/health/live`, { timeoutMs: 2_000 });
      if (response.status === 200 && response.headers['x-minio-server-status'] !== 'offline') return;
      lastProblem = `status ${response.status}, server status ${response.headers['x-minio-server-status'] ?? 'unknown'}`;
    } catch (error) {
      lastProblem = error.message;
    }
    await sleep(100);
  }
  throw new Error(`MinIO at ${endpoint} was not healthy after ${timeoutMs} ms (${lastProblem}); its stderr:\n${stderrTail()}`);
}

/**
 * Starts a throwaway MinIO on free 127.0.0.1 ports with its data in a temporary folder.
 * @param {{ log?: (line: string) => void, accessKey?: string, secretKey?: string, timeoutMs?: number }} [options]
 */
export async function startMinio(options = {}) {
  const binary = ensureMinio({ log: options.log });
  const accessKey = options.accessKey ?? MINIO_TEST_ACCESS_KEY;
  const secretKey = options.secretKey ?? MINIO_TEST_SECRET_KEY;
  // MinIO refuses shorter root credentials; say so before it fails with a less direct message.
  if (accessKey.length < 3 || secretKey.length < 8) throw new Error('MinIO needs an access key of at least 3 and a secret key of at least 8 characters');
  const [port, consolePort] = await freePorts(2);
  const endpoint = `http://127.0.0.1:${port}`;
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-minio-'));
  const dataDir = join(scratch, 'data');
  // Its own certs folder keeps MinIO out of ~/.minio.
  mkdirSync(dataDir);
  mkdirSync(join(scratch, 'certs'));
  const serverArgs = ['server', '--quiet', '--address', `127.0.0.1:${port}`, '--console-address', `127.0.0.1:${consolePort}`, '--certs-dir', join(scratch, 'certs'), dataDir];
  const [command, args] = withParentDeathSignal(binary, serverArgs);
  const env = { ...process.env, MINIO_ROOT_USER: accessKey, MINIO_ROOT_PASSWORD: secretKey, MINIO_REGION, MINIO_BROWSER: 'off', MINIO_UPDATE: 'off' };
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  const spawnFailed = new Promise((_, reject) => child.once('error', (error) => reject(new Error(`could not run ${binary}: ${error.message}`))));
  tailCollector(child.stdout);
  const stderrTail = tailCollector(child.stderr);
  // The server must not outlive this process, even when the caller never calls stop().
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  };
  process.on('exit', killOnExit);
  const stop = stopper(child, Promise.race([exited, spawnFailed.catch(() => undefined)]), scratch, killOnExit);
  try {
    await Promise.race([waitForHealthy(endpoint, child, stderrTail, options.timeoutMs ?? HEALTH_TIMEOUT_MS), spawnFailed]);
  } catch (error) {
    await stop();
    throw error;
  }
  options.log?.(`MinIO listening on ${endpoint} (data in ${dataDir})`);
  return { endpoint, port, accessKey, secretKey, region: MINIO_REGION, dataDir, stop };
}

const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
// SigV4 wants RFC 3986 encoding, which encodeURIComponent misses for !'()*.
const encodeRfc3986 = (text) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * One S3 call signed with AWS Signature Version 4 (enough for test set-up; no SDK dependency).
 * @param {{ endpoint: string, accessKey: string, secretKey: string, region?: string }} server
 * @param {string} method
 * @param {string} path e.g. "/bucket" or "/bucket/key"
 * @param {Record<string, string>} [query]
 * @param {string | Buffer} [body]
 */
export function signedS3Request(server, method, path, query = {}, body = '') {
  const url = new URL(server.endpoint);
  const region = server.region ?? MINIO_REGION;
  const amzDate = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const scope = `${amzDate.slice(0, 8)}/${region}/s3/aws4_request`;
  const payloadHash = body.length === 0 ? EMPTY_PAYLOAD_SHA256 : sha256Hex(body);
  const canonicalPath = path.split('/').map(encodeRfc3986).join('/');
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((name) => `${encodeRfc3986(name)}=${encodeRfc3986(query[name])}`)
    .join('&');
  const headers = { host: url.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate };
  const signedHeaders = Object.keys(headers).sort().join(';');
  const canonicalHeaders = Object.keys(headers)
    .sort()
    .map((name) => `${name}:${headers[name]}\n`)
    .join('');
  const canonicalRequest = [method, canonicalPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = ['s3', 'aws4_request'].reduce(hmac, hmac(hmac(`AWS4${server.secretKey}`, amzDate.slice(0, 8)), region));
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  const authorization = `AWS4-HMAC-SHA256 Credential=${server.accessKey}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  const target = `${url.origin}${canonicalPath}${canonicalQuery ? `?${canonicalQuery}` : ''}`;
  return send(target, { method, headers: { ...headers, authorization, 'content-length': String(Buffer.byteLength(body)) }, body });
}

/**
 * Creates a bucket (S3 CreateBucket: PUT /name with an empty body); throws with the server's answer unless it succeeds.
 * @param {{ endpoint: string, accessKey: string, secretKey: string, region?: string }} server
 * @param {string} name
 */
export async function createBucket(server, name) {
  const response = await signedS3Request(server, 'PUT', `/${name}`);
  if (response.status !== 200) throw new Error(`CreateBucket ${name} at ${server.endpoint} failed with status ${response.status}:\n${response.body}`);
}

/** `node scripts/minio.mjs`: a server for manual tries, up until Ctrl-C. */
async function main() {
  const log = (line) => process.stderr.write(`${line}\n`);
  const server = await startMinio({ log });
  const bucket = 'quota-state';
  await createBucket(server, bucket);
  const lines = [
    `MinIO (test S3 server) at ${server.endpoint}`,
    `  access key: ${server.accessKey}`,
    `  secret key: ${server.secretKey}`,
    `  region:     ${server.region}`,
    `  data:       ${server.dataDir}`,
    `  bucket:     ${bucket} (created)`,
    '',
    'Environment:',
    `  AWS_ACCESS_KEY_ID=${server.accessKey}`,
    `  AWS_SECRET_ACCESS_KEY=${server.secretKey}`,
    `  AWS_REGION=${server.region}`,
    '',
    // gocloud.dev (Pulumi's blob layer) takes the endpoint as a full URL and still accepts the SDK v1 path-style flag.
    `Pulumi backend URL: s3://${bucket}?endpoint=${server.endpoint}&s3ForcePathStyle=true&region=${server.region}`,
    '',
    'Ctrl-C stops the server and deletes its data.',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  serveUntilInterrupted(server, 'MinIO', log);
}

runAsScript(import.meta.url, main);
