// `npm run bench:api`: load-tests the reference quota API on loopback with autocannon and prints
// requests per second and p50/p99 latency as a table. The server runs on a database file (WAL,
// synchronous=FULL, so every write pays its fsync) seeded with the demo instance.
// Options: --duration SECONDS (default 5), --connections N (default 10).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

function startServer(db) {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'dist/quota-api/main.js'), '--port', '0', '--db', db, '--seed', join(repoRoot, 'examples/demo.quota.jsonc'), '--log-level', 'warn'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolveStart({ baseUrl: out.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`quota-api exited (${code}) before listening`)));
  });
}

function run(options) {
  return new Promise((resolveRun, reject) => {
    autocannon({ duration, connections, ...options }, (error, result) => (error ? reject(error) : resolveRun(result)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'quota-api-bench-'));
const { baseUrl, child } = await startServer(join(dir, 'bench.sqlite'));
const url = new URL(baseUrl);
const origin = `${url.protocol}//${url.host}`;
const rows = [];
try {
  const check = await run({
    url: origin,
    requests: [{ method: 'GET', path: `${url.pathname}/user/quota/check?subject=size:repos:all`, headers: { authorization: 'token demo-bob-token' } }],
  });
  rows.push({ scenario: 'GET /user/quota/check', result: check });

  let counter = 0;
  const admin = { authorization: 'token demo-root-token', 'content-type': 'application/json' };
  const createDelete = await run({
    url: origin,
    requests: [
      {
        method: 'POST',
        path: `${url.pathname}/admin/quota/rules`,
        headers: admin,
        setupRequest: (request, context) => {
          context.name = `bench-${process.pid}-${counter++}`;
          return { ...request, body: JSON.stringify({ name: context.name, limit: 1024, subjects: ['size:all'] }) };
        },
      },
      {
        method: 'DELETE',
        headers: admin,
        setupRequest: (request, context) => ({ ...request, path: `${url.pathname}/admin/quota/rules/${context.name}` }),
      },
    ],
  });
  rows.push({ scenario: 'POST + DELETE /admin/quota/rules (each request)', result: createDelete });
} finally {
  child.kill('SIGTERM');
  await new Promise((resolveExit) => child.on('exit', resolveExit));
  rmSync(dir, { recursive: true, force: true });
}

const table = rows.map(({ scenario, result }) => ({
  scenario,
  'req/s': Math.round(result.requests.average),
  'p50 ms': result.latency.p50,
  'p99 ms': result.latency.p99,
  requests: result.requests.total,
  'non-2xx': result.non2xx,
  errors: result.errors + result.timeouts,
}));
console.log(`quota API on loopback: ${connections} connections, ${duration} s per scenario, ${process.platform} node ${process.version}`);
console.table(table);
if (table.some((row) => row['non-2xx'] > 0 || row.errors > 0)) {
  console.error('some requests failed: the numbers above are not a clean measurement');
  process.exitCode = 1;
}
