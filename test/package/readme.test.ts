/**
 * The README's first screen serves a newcomer, and its commands work as written: the set-up commands,
 * `npx quota-state …` from the checkout (the bin is not on PATH after `npm ci`), and no npm setting
 * that npm itself only warns about.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** What a 50-line terminal or the top of a repository page shows. */
const firstScreen = readme.split('\n').slice(0, 50).join('\n');

describe('the README', () => {
  it('shows on its first screen what the product is, a picture, the two set-up commands, npx quota-state and the links', () => {
    assert.match(firstScreen, /^# Quota & State\n/);
    assert.match(firstScreen, /!\[[^\]]+\]\(images\/screenshot-[\w-]+\.png\)/);
    assert.match(firstScreen, /^npm ci && npm start\b/m);
    assert.match(firstScreen, /^npm test\b/m);
    assert.match(firstScreen, /^npx quota-state check \S+/m);
    for (const [, target] of firstScreen.matchAll(/\]\((docs\/[\w.-]+\.md)(?:#[\w-]+)?\)/g)) assert.ok(existsSync(join(ROOT, target)), `${target} exists`);
    assert.ok(readme.split('\n').length < 150, `the reference lives in docs/, not in a README of ${readme.split('\n').length} lines`);
  });

  it('runs its `npx quota-state check` line from the checkout as written', () => {
    const line = /^npx quota-state (check \S+)/m.exec(firstScreen)![1];
    const result = spawnSync('npx', ['--no-install', 'quota-state', ...line.split(' ')], { cwd: ROOT, encoding: 'utf8' });
    assert.match(result.stdout, /1 file checked, \d+ problems/, result.stderr);
    assert.equal(result.status, 1, 'the example has errors on purpose');
  });

  it("sets no npm_config_unsafe_perm outside code-server's own install, which npm 11 only warns about", () => {
    const files = ['.ci/run', 'package.json', 'scripts/run-tests.mjs', 'scripts/start.mjs', 'scripts/test-extension.mjs'];
    for (const file of files) assert.doesNotMatch(readFileSync(join(ROOT, file), 'utf8'), /unsafe[-_]perm/, file);
  });
});
