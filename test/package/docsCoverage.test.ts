/**
 * The map covers the code: every top-level module of shared/, cli/, client/ and server/ (a file
 * directly in the folder, or a folder) is named in docs/architecture.md, so a module added without
 * its place on the map fails here (docsMap.test.ts checks the other way: what the map names exists).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes';

const MAPPED = ['shared', 'cli', 'client', 'server'];

/** Every backticked token of the map, split at spaces and punctuation (`` `a.ts`/`b.ts` `` names both). */
const tokens = [...readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8').matchAll(/`([^`\n]+)`/g)].flatMap((match) => match[1].split(/[\s,()]+/)).filter(Boolean);

function named(top: string, entry: string, folder: boolean): boolean {
  const key = folder ? `${entry}/` : entry;
  return tokens.some((token) => token === key || token === `${top}/${key}` || token.endsWith(`/${key}`) || (folder && token.startsWith(`${top}/${entry}/`)));
}

describe('the code map covers every top-level module (docs/architecture.md)', () => {
  for (const top of MAPPED) {
    it(`names every file and folder directly in ${top}/`, () => {
      const missing = readdirSync(join(ROOT, top))
        .filter((entry) => {
          const folder = statSync(join(ROOT, top, entry)).isDirectory();
          if (!folder && (!entry.endsWith('.ts') || entry.endsWith('.test.ts') || entry.endsWith('.d.ts'))) return false;
          return !named(top, entry, folder);
        })
        .map((entry) => `${top}/${entry}`);
      assert.deepEqual(missing, [], 'add each to the map, where it lives and what it is');
    });
  }
});
