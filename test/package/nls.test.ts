/**
 * Ready for translation, the way VS Code's own extensions are: every contributed title and
 * description is a `%key%` of package.nls.json, every string shown at run time is in the l10n
 * bundle that `npm run l10n:export` (`@vscode/l10n-dev export`) writes, the core's (shared/) as
 * much as the client's and the server's, and code names (command ids, setting ids, diagnostic
 * codes) are never translated.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes';
import type { Probed } from './l10nProbe';

type Json = Record<string, unknown>;
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Json;
const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** Fields whose strings a person reads: displayed titles, descriptions, labels and messages. */
const TRANSLATED_FIELDS = new Set([
  'displayName',
  'description',
  'title',
  'category',
  'name',
  'contextualTitle',
  'contents',
  'label',
  'altText',
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'deprecationMessage',
  'markdownDeprecationMessage',
]);

/** [path, string] for every string under a translated field of the manifest's user-facing parts. */
function contributedStrings(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const visit = (value: unknown, path: string, field: string | undefined) => {
    if (typeof value === 'string') {
      // A problem matcher's `name` is its id (`$quota-state`), not a label.
      if (field && TRANSLATED_FIELDS.has(field) && !(field === 'name' && path.startsWith('contributes.problemMatchers'))) found.push([path, value]);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, `${path}[${i}]`, field === 'enumDescriptions' || field === 'markdownEnumDescriptions' ? field : undefined));
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) visit(child, `${path}.${key}`, key);
    }
  };
  visit(manifest.displayName, 'displayName', 'displayName');
  visit(manifest.description, 'description', 'description');
  visit(manifest.capabilities, 'capabilities', undefined);
  const contributes = manifest.contributes as Json;
  // Not displayed: JSON schema associations, problem-matcher patterns, language ids, menus.
  for (const part of ['commands', 'views', 'viewsWelcome', 'walkthroughs', 'configuration', 'problemMatchers']) visit(contributes[part], `contributes.${part}`, undefined);
  return found;
}

const KEY = /^%([^%]+)%$/;

/** What test/package/l10nProbe.ts prints for the fixtures, in a process of its own, with the bundle at `bundle` (none: English). */
function probe(bundle?: string): Probed[] {
  const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'l10nProbe.ts'), ...(bundle ? [bundle] : [])], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as Probed[];
}

describe('ready for translation', () => {
  it('every contributed title and description is a key of package.nls.json', () => {
    const strings = contributedStrings();
    assert.ok(strings.length > 150, `only ${strings.length} contributed strings found: the walk missed some`);
    const withoutKey = strings.filter(([, value]) => !KEY.test(value)).map(([path, value]) => `${path}: ${JSON.stringify(value.slice(0, 60))}`);
    assert.deepEqual(withoutKey, [], 'contributed strings without a %key%');
    const missing = strings.map(([, value]) => KEY.exec(value)![1]).filter((key) => !(key in nls));
    assert.deepEqual(missing, [], 'keys missing from package.nls.json');
  });

  it('package.nls.json holds no key the manifest does not use, and no empty text', () => {
    const text = readFileSync(join(ROOT, 'package.json'), 'utf8');
    assert.deepEqual(
      Object.keys(nls).filter((key) => !text.includes(`"%${key}%"`)),
      [],
    );
    assert.deepEqual(
      Object.entries(nls)
        .filter(([, value]) => value.trim() === '')
        .map(([key]) => key),
      [],
    );
  });

  it('code names are not translated: command, view and setting ids, enum values, diagnostic codes', () => {
    const contributes = manifest.contributes as Json;
    const names: string[] = [
      ...(contributes.commands as Json[]).map((c) => String(c.command)),
      ...Object.values(contributes.views as Record<string, Json[]>)
        .flat()
        .map((v) => String(v.id)),
      ...Object.keys((contributes.configuration as Json).properties as Json),
    ];
    for (const property of Object.values((contributes.configuration as Json).properties as Record<string, Json>)) {
      names.push(...((property.enum as string[] | undefined) ?? []), ...(((property.propertyNames as Json | undefined)?.enum as string[] | undefined) ?? []));
    }
    assert.ok(names.includes('forward-reference') && names.includes('quotaState.signIn'));
    assert.deepEqual(
      names.filter((name) => name.includes('%')),
      [],
    );
  });

  it('l10n/bundle.l10n.json is what `npm run l10n:export` extracts from the client, the server and the core they share', function () {
    // The export parses every source file: about 30 s on this 2-core machine, more when it is busy.
    this.timeout(180_000);
    // The script's own folders, so the test and `npm run l10n:export` cannot scan different code.
    const script = String((manifest.scripts as Json)['l10n:export']).split(/\s+/);
    const folders = script.filter((arg) => arg.startsWith('./') && arg !== './l10n');
    assert.deepEqual(folders, ['./client', './server', './shared']);
    const out = mkdtempSync(join(tmpdir(), 'quota-state-l10n-'));
    try {
      const exported = spawnSync(join(ROOT, 'node_modules', '.bin', 'vscode-l10n-dev'), ['export', '--outDir', out, ...folders], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(exported.status, 0, exported.stderr);
      const fresh = JSON.parse(readFileSync(join(out, 'bundle.l10n.json'), 'utf8'));
      const committed = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8'));
      assert.deepEqual(committed, fresh, 'l10n/bundle.l10n.json is stale: run `npm run l10n:export`');
      assert.ok(Object.keys(fresh).length > 80, 'the runtime strings go through vscode.l10n.t and @vscode/l10n');
      assert.equal(manifest.l10n, './l10n');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("the core's messages come from the bundle: a pseudo-translation of it reaches every diagnostic, fix, lens, hover and report of the fixtures", () => {
    // Every message of the bundle, marked: ⟪No group "{0}" in {1}⟫. A string the core builds without l10n.t stays unmarked.
    const committed = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string | { message: string }>;
    const pseudo = Object.fromEntries(Object.entries(committed).map(([key, value]) => [key, `⟪${typeof value === 'string' ? value : value.message}⟫`]));
    const out = mkdtempSync(join(tmpdir(), 'quota-state-pseudo-'));
    try {
      writeFileSync(join(out, 'bundle.json'), JSON.stringify(pseudo));
      const english = probe();
      const translated = probe(join(out, 'bundle.json'));
      assert.ok(english.length > 3000, `only ${english.length} strings probed`);
      assert.equal(translated.length, english.length);
      // A message is translated as a whole; a hover mixes translated lines with data (urns, figures).
      const untranslated = translated.filter((p) => (p.whole ? !p.text.startsWith('⟪') : !p.text.includes('⟪'))).map((p) => `${p.where}: ${p.text.slice(0, 120)}`);
      assert.deepEqual(untranslated, [], 'strings the bundle does not reach');
      // Without its marks, each translated string is the English one: the keys are the very templates, placeholders filled alike.
      const differing = translated.filter((p, i) => p.text.replace(/[⟪⟫]/g, '') !== english[i].text || p.where !== english[i].where).map((p) => p.where);
      assert.deepEqual(differing, []);
      assert.ok(english.every((p) => !/[⟪⟫]/.test(p.text)));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
