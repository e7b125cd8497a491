// `npm run bench:api`: load-tests the reference quota API on loopback with autocannon and prints
// requests per second and p50/p99 latency as a table, for a small database (the demo instance)
// and a large one (the demo plus 50,000 rules, 2,000 groups and 10,000 accounts), beside the
// trivial `/version` route of the same server as the ceiling. Both servers run on database
// files (WAL, synchronous=FULL, so every write pays its fsync).
// Options: --duration SECONDS (default 5), --connections N (default 10),
//          --rules N, --groups N, --accounts N (size of the large database),
//          --runs N (default 1: each read scenario is measured N times and the median reported,
//          since the machine's other load varies), --only small|large (one database).
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    rules: { type: 'string', default: '50000' },
    groups: { type: 'string', default: '2000' },
    accounts: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '1' },
    only: { type: 'string' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const runs = Math.max(1, Number(values.runs));
const large = { rules: Number(values.rules), groups: Number(values.groups), accounts: Number(values.accounts) };
const LARGE_USER_TOKEN = 'bench-large-user-token';

function startServer(db) {
  const child = spawn(process.execPath, [join(repoRoot, 'dist/quota-api/main.js'), '--port', '0', '--db', db, '--seed', join(repoRoot, 'examples/demo.quota.jsonc'), '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolveStart({ baseUrl: out.trim(), child });
    });
    child.on('exit', (code) => reject(new Error(`quota-api exited (${code}) before listening`)));
  });
}

async function stopServer(child) {
  child.kill('SIGTERM');
  await new Promise((resolveExit) => child.on('exit', resolveExit));
}

/** Adds the large installation to a seeded database: every account in a few groups, each group with 25 rules. */
function growDatabase(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const subjects = ['size:all', 'size:repos:all', 'size:git:lfs', 'size:assets:all'];
  db.transaction(() => {
    const rule = db.prepare('INSERT INTO quota_rules (name, limit_bytes, subjects) VALUES (?, ?, ?)');
    for (let i = 0; i < large.rules; i++) rule.run(`bench-rule-${i}`, 1024 * 1024 * (i + 1), JSON.stringify([subjects[i % subjects.length]]));
    const group = db.prepare('INSERT INTO quota_groups (name) VALUES (?)');
    const link = db.prepare(
      `INSERT OR IGNORE INTO quota_group_rules (group_id, rule_id)
       SELECT g.id, r.id FROM quota_groups g, quota_rules r WHERE g.name = ? AND r.name = ?`,
    );
    for (let g = 0; g < large.groups; g++) {
      group.run(`bench-group-${g}`);
      for (let k = 0; k < 25; k++) link.run(`bench-group-${g}`, `bench-rule-${(g * 25 + k) % large.rules}`);
    }
    const account = db.prepare("INSERT INTO accounts (name, type) VALUES (?, 'user')");
    const member = db.prepare(
      `INSERT OR IGNORE INTO quota_group_accounts (group_id, account_id)
       SELECT g.id, a.id FROM quota_groups g, accounts a WHERE g.name = ? AND a.name = ?`,
    );
    for (let a = 0; a < large.accounts; a++) {
      account.run(`bench-user-${a}`);
      for (let k = 0; k < 1 + (a % 3); k++) member.run(`bench-group-${(a * 7 + k) % large.groups}`, `bench-user-${a}`);
    }
    db.prepare("INSERT INTO tokens (account_id, token_sha256, created_at) SELECT id, ?, ? FROM accounts WHERE name = 'bench-user-4242'").run(
      createHash('sha256').update(LARGE_USER_TOKEN).digest('hex'),
      new Date().toISOString(),
    );
  })();
  db.close();
}

function run(options) {
  return new Promise((resolveRun, reject) => {
    autocannon({ duration, connections, ...options }, (error, result) => (error ? reject(error) : resolveRun(result)));
  });
}

const rows = [];

async function readScenarios(label, baseUrl, checkToken) {
  const url = new URL(baseUrl);
  const origin = `${url.protocol}//${url.host}`;
  const get = (path, token) => ({ method: 'GET', path: `${url.pathname}${path}`, headers: token ? { authorization: `token ${token}` } : {} });
  const scenarios = [
    ['GET /version (ceiling)', get('/version')],
    // The same ceiling behind the check's token: what signing in costs, apart from the check's own work.
    ['GET /version, signed in', get('/version', checkToken)],
    ['GET /user/quota/check', get('/user/quota/check?subject=size:repos:all', checkToken)],
    ['GET /user/quota', get('/user/quota', checkToken)],
    ['GET /orgs/acme/quota/attachments', get('/orgs/acme/quota/attachments?limit=10', 'demo-alice-token')],
    ['GET /orgs/acme/quota/artifacts', get('/orgs/acme/quota/artifacts?limit=10', 'demo-alice-token')],
  ];
  // Rounds of every scenario in turn, so a burst of outside load hits all scenarios alike.
  const results = new Map(scenarios.map(([scenario]) => [scenario, []]));
  for (let round = 0; round < runs; round++) {
    for (const [scenario, request] of scenarios) results.get(scenario).push(await run({ url: origin, requests: [request] }));
  }
  for (const [scenario] of scenarios) {
    const sorted = results.get(scenario).sort((a, b) => a.requests.average - b.requests.average);
    const result = sorted[Math.floor(sorted.length / 2)];
    rows.push({ db: label, scenario, result, all: sorted.map((r) => Math.round(r.requests.average)) });
  }
  return origin;
}

const dir = mkdtempSync(join(tmpdir(), 'quota-api-bench-'));
try {
  if (values.only !== 'large') {
    const small = await startServer(join(dir, 'small.sqlite'));
    try {
      await readScenarios('small', small.baseUrl, 'demo-bob-token');
      const url = new URL(small.baseUrl);
      let counter = 0;
      const admin = { authorization: 'token demo-root-token', 'content-type': 'application/json' };
      const createDelete = await run({
        url: `${url.protocol}//${url.host}`,
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
      rows.push({ db: 'small', scenario: 'POST + DELETE /admin/quota/rules (each request)', result: createDelete });
    } finally {
      await stopServer(small.child);
    }
  }

  if (values.only !== 'small') {
    const largeFile = join(dir, 'large.sqlite');
    const seeded = await startServer(largeFile);
    await stopServer(seeded.child);
    const started = Date.now();
    growDatabase(largeFile);
    console.error(`large database: ${large.rules} rules, ${large.groups} groups, ${large.accounts} accounts (built in ${Date.now() - started} ms)`);
    const big = await startServer(largeFile);
    try {
      await readScenarios('large', big.baseUrl, LARGE_USER_TOKEN);
    } finally {
      await stopServer(big.child);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const table = rows.map(({ db, scenario, result, all }) => ({
  db,
  scenario,
  'req/s': Math.round(result.requests.average),
  ...(runs > 1 ? { 'runs req/s': (all ?? []).join(' ') } : {}),
  'p50 ms': result.latency.p50,
  'p99 ms': result.latency.p99,
  requests: result.requests.total,
  'non-2xx': result.non2xx,
  errors: result.errors + result.timeouts,
}));
console.log(`quota API on loopback: ${connections} connections, ${duration} s per scenario, median of ${runs} run(s), ${process.platform} node ${process.version}`);
console.table(table);
const rate = (db, scenario) => table.find((row) => row.db === db && row.scenario === scenario)?.['req/s'] ?? 0;
const percent = (a, b) => (b > 0 ? Math.round((100 * a) / b) : 0);
const measured = ['small', 'large'].filter((db) => table.some((row) => row.db === db));
if (measured.length === 2) {
  console.log(`check, large vs small database: ${percent(rate('large', 'GET /user/quota/check'), rate('small', 'GET /user/quota/check'))}% (target ≥ 80%)`);
}
for (const db of measured) {
  console.log(`check vs /version, ${db} database: ${percent(rate(db, 'GET /user/quota/check'), rate(db, 'GET /version (ceiling)'))}% (target ≥ 90%)`);
  console.log(
    `  signed-in /version vs /version: ${percent(rate(db, 'GET /version, signed in'), rate(db, 'GET /version (ceiling)'))}%; check vs signed-in /version: ${percent(rate(db, 'GET /user/quota/check'), rate(db, 'GET /version, signed in'))}%`,
  );
}
if (table.some((row) => row['non-2xx'] > 0 || row.errors > 0)) {
  console.error('some requests failed: the numbers above are not a clean measurement');
  process.exitCode = 1;
}
