#!/usr/bin/env node
// `npm run coverage`: the mocha suite (not the VS Code extension-host suites) under c8, then the
// coverage of shared/, server/ and quota-api/: a summary, a table of branch coverage per folder, and
// the ten least-covered files of a top folder below 85% of its branches. Not part of `npm test`.
//
// What the tests import runs from TypeScript through tsx; the CLI, the language server and the
// reference API they start run from dist/ (the development build, with source maps). c8 maps both back
// to the .ts files. c8's --exclude-after-remap would filter after that mapping, but it reports every
// file at 100% (bcoe/c8#462), so the bundles are included by their dist/ paths and this script keeps
// the three folders of what they map to. Reports: coverage/coverage-final.json (Istanbul JSON).
// Exit code: mocha's, or 1 when no report could be made.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePulumi } from './pulumi-cli.mjs';
import { packageVsix } from './vscode-web.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['shared', 'server', 'quota-api'];
const THRESHOLD = 85;
const reportDir = join(repoRoot, 'coverage');

function run(title, command, args, env = {}) {
  console.log(`\n> ${title}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.error) console.error(`${title}: ${result.error.message}`);
  return result.status ?? 1;
}

const SOURCES = ['shared/**/*.ts', 'server/**/*.ts', 'quota-api/**/*.ts'];
const EXCLUDE = ['shared/validators/**', '**/*.d.ts', '**/*.test.ts'];
/** c8's command line, run by this Node. */
const c8 = fileURLToPath(import.meta.resolve('c8/bin/c8.js'));
const tempDir = join(reportDir, 'tmp');
const globs = (flag, list) => list.flatMap((glob) => [flag, glob]);

/** Runs mocha under c8 as `npm test` runs it: the packaged .vsix for its test, the development build in dist/, the real Pulumi. */
function collect(scratch) {
  console.log('\n> package the .vsix (its test reads it instead of packaging over dist/ mid-run)');
  const vsix = packageVsix(join(scratch, 'quota-state.vsix'));
  if (run('build', process.execPath, ['esbuild.mjs']) !== 0) return 1;
  console.log('\n> the real Pulumi CLI (built on first use, then cached)');
  ensurePulumi({ log: (line) => console.log(line) });
  const args = ['--temp-directory', tempDir, '--reporter', 'json', '--report-dir', reportDir, ...globs('--include', SOURCES), ...globs('--exclude', EXCLUDE)];
  return run('mocha under c8', process.execPath, [c8, ...args, join(repoRoot, 'node_modules', '.bin', 'mocha'), '--reporter', 'dot'], { QUOTA_STATE_VSIX: vsix });
}

/** The bundles in dist/ that a process the tests started loaded (`--all` would count one never loaded as wholly covered: its one range spans many sources). */
function loadedBundles() {
  const bundles = new Set();
  for (const name of readdirSync(tempDir)) {
    for (const { url } of JSON.parse(readFileSync(join(tempDir, name), 'utf8')).result) {
      if (!url.startsWith('file://')) continue;
      const path = relative(repoRoot, fileURLToPath(url)).split(sep).join('/');
      if (path.startsWith('dist/') && !path.startsWith('dist/web/') && path.endsWith('.js')) bundles.add(path);
    }
  }
  return [...bundles].sort();
}

/** Istanbul JSON of the .ts sources, from both the tsx-loaded files and the bundles (through their source maps); files never loaded count as uncovered. */
function report() {
  const bundles = loadedBundles();
  console.log(`\n> c8 report: the .ts sources, with ${bundles.length} bundles of dist/ mapped back (${bundles.join(', ')})`);
  const args = [
    'report',
    '--temp-directory',
    tempDir,
    '--all',
    '--src',
    '.',
    '--reporter',
    'json',
    '--report-dir',
    reportDir,
    ...globs('--include', [...SOURCES, ...bundles]),
    ...globs('--exclude', EXCLUDE),
  ];
  return run('c8 report', process.execPath, [c8, ...args]);
}

function emptyCounts() {
  return { statements: [0, 0], branches: [0, 0], functions: [0, 0], lines: [0, 0] };
}

/** Covered and total statements, branches, functions and lines of one file of Istanbul's JSON. */
function countsOf(file) {
  const counts = emptyCounts();
  const add = (key, hits) => {
    counts[key][1] += 1;
    if (hits > 0) counts[key][0] += 1;
  };
  for (const hits of Object.values(file.s)) add('statements', hits);
  for (const arms of Object.values(file.b)) for (const hits of arms) add('branches', hits);
  for (const hits of Object.values(file.f)) add('functions', hits);
  const lines = new Map();
  for (const [id, hits] of Object.entries(file.s)) {
    const line = file.statementMap[id].start.line;
    lines.set(line, Math.max(lines.get(line) ?? 0, hits));
  }
  for (const hits of lines.values()) add('lines', hits);
  return counts;
}

function addInto(total, counts) {
  for (const key of Object.keys(total)) {
    total[key][0] += counts[key][0];
    total[key][1] += counts[key][1];
  }
}

const percent = ([covered, total]) => (total === 0 ? 100 : (100 * covered) / total);
const shown = (pair) => `${percent(pair).toFixed(2).padStart(6)}% (${pair[0]}/${pair[1]})`;

/** The three folders' files, relative to the repository, with their counts. */
function readFiles() {
  const coverage = JSON.parse(readFileSync(join(reportDir, 'coverage-final.json'), 'utf8'));
  const files = [];
  for (const [path, file] of Object.entries(coverage)) {
    const name = relative(repoRoot, path).split(sep).join('/');
    if (!name.endsWith('.ts') || name.endsWith('.d.ts') || name.endsWith('.test.ts') || name.startsWith('shared/validators/')) continue;
    if (!FOLDERS.some((folder) => name.startsWith(`${folder}/`))) continue;
    files.push({ name, counts: countsOf(file) });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

function printReport(files) {
  const tops = new Map(FOLDERS.map((folder) => [folder, emptyCounts()]));
  const folders = new Map();
  for (const { name, counts } of files) {
    addInto(tops.get(name.split('/')[0]), counts);
    const folder = name.slice(0, name.lastIndexOf('/'));
    if (!folders.has(folder)) folders.set(folder, emptyCounts());
    addInto(folders.get(folder), counts);
  }
  console.log('\nCoverage summary (.ts sources; in-process through tsx, child processes through dist/ source maps)');
  for (const [folder, counts] of tops) {
    console.log(`  ${`${folder}/`.padEnd(11)} statements ${shown(counts.statements)}  branches ${shown(counts.branches)}  functions ${shown(counts.functions)}  lines ${shown(counts.lines)}`);
  }
  console.log('\nBranch coverage per folder');
  const width = Math.max(...[...folders.keys()].map((folder) => folder.length)) + 1;
  console.log(`  ${'folder'.padEnd(width)} | ${'branches'.padStart(22)} | files`);
  for (const [folder, counts] of [...folders].sort(([a], [b]) => a.localeCompare(b))) {
    const count = files.filter((file) => file.name.slice(0, file.name.lastIndexOf('/')) === folder).length;
    console.log(`  ${`${folder}/`.padEnd(width)} | ${shown(counts.branches).padStart(22)} | ${count}`);
  }
  for (const [folder, counts] of tops) {
    if (percent(counts.branches) >= THRESHOLD) continue;
    console.log(`\n${folder}/ is below ${THRESHOLD}% of its branches; its ten least-covered files:`);
    const least = files
      .filter((file) => file.name.startsWith(`${folder}/`) && file.counts.branches[1] > 0)
      .sort((a, b) => percent(a.counts.branches) - percent(b.counts.branches) || b.counts.branches[1] - a.counts.branches[1]);
    for (const file of least.slice(0, 10)) console.log(`  ${file.name.padEnd(width + 24)} ${shown(file.counts.branches)}`);
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'quota-state-coverage-'));
let status;
try {
  status = collect(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
try {
  if (report() !== 0) throw new Error('c8 report failed');
  printReport(readFiles());
} catch (error) {
  console.error(`coverage: no report to read (${error instanceof Error ? error.message : error})`);
  status ||= 1;
}
process.exit(status);
