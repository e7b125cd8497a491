/**
 * The map cannot drift: every file, folder and symbol that docs/architecture.md and CONTRIBUTING.md
 * name in backticks must exist. A path must be a tracked file or folder (named whole, or by its last
 * segments where the text has already said which folder); a symbol must be declared in the code; a
 * symbol given with its file (`` `applyEdits` (`shared/edits.ts`) ``, `` `registerRoutes` of
 * `quota-api/app.ts` ``) must be declared in that file.
 */
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes';

const DOCS = ['docs/architecture.md', 'CONTRIBUTING.md'];

/** Names the docs use that are not this repository's: other projects' APIs, generated or per-user files. */
const NOT_OURS = new Set(['publishDiagnostics', '.quota-state.json', 'dist/', 'dist/cli/quota-state.js', 'getLanguageService']);

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`),
  ),
);
const sources = tracked.filter((file) => /\.(ts|mjs|cjs)$/.test(file) && !file.startsWith('test/fixtures/'));
const textOf = new Map(sources.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));

const declares = (text: string, name: string) =>
  new RegExp(`(?:function\\*?|const|let|class|interface|type|enum)\\s+${name}\\b|export\\s*(?:type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}|\\b${name}\\s*[?]?:|['"]${name}['"]`).test(text);

function pathExists(token: string): boolean {
  if (token.endsWith('/')) return [...folders].some((folder) => folder === token || folder.endsWith(`/${token}`));
  return tracked.some((file) => file === token || file.endsWith(`/${token}`));
}

const isPath = (token: string) => /^[\w.-]+(\/[\w.-]+)*\/?$/.test(token) && (/\.(ts|mjs|cjs|js|json|md)$/.test(token) || token.endsWith('/'));
const isSymbol = (token: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(token) && /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]/.test(token);

describe('the code map (docs/architecture.md, CONTRIBUTING.md)', () => {
  for (const doc of DOCS) {
    const text = readFileSync(join(ROOT, doc), 'utf8');

    it(`${doc}: every path it names exists`, () => {
      const missing = [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]).filter((token) => isPath(token) && !NOT_OURS.has(token) && !pathExists(token));
      assert.deepEqual([...new Set(missing)], []);
    });

    it(`${doc}: every symbol it names is declared, and where it says`, () => {
      const missing: string[] = [];
      for (const [, token] of text.matchAll(/`([^`\n]+)`/g)) {
        if (!isSymbol(token) || NOT_OURS.has(token)) continue;
        if (![...textOf.values()].some((source) => declares(source, token))) missing.push(token);
      }
      for (const [, symbol, file] of text.matchAll(/`([A-Za-z_]\w*)`(?:'s)? (?:\(`|of `|in `)([\w./-]+\.(?:ts|mjs|cjs))`/g)) {
        const candidates = sources.filter((source) => source === file || source.endsWith(`/${file}`));
        if (!candidates.some((source) => declares(textOf.get(source)!, symbol))) missing.push(`${symbol} in ${file}`);
      }
      assert.deepEqual([...new Set(missing)], []);
    });
  }
});
