/** `quota-state fix` as a process, and its result against the editor's quick fixes applied one by one. */
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyPatch } from 'diff';
import type { CodeAction, Diagnostic, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { analyzeFile } from '../../shared/analyze';
import { safeFixCodes } from '../../shared/fixAll';

const SAFE_STATE_FIXES = safeFixCodes('state');
const SAFE_QUOTA_FIXES = safeFixCodes('quota');
import { LspTestClient } from '../lsp/client';
import { ROOT, runQuotaState } from '../helpers/processes';

const ALIASED_QUOTA = `{
  // Seed spellings that real Forgejo rejects, and one typo fix leaves alone.
  "rules": [
    { "name": "git", "limit": "1 GiB", "subjects": ["sizeall", "sizelfs"] },
    { "name": "wiki",   "limit": -1, "subjects": [ "size:wiki" ] }
  ],
  "groups": [ { "name": "g", "rules": ["git", "wiki"] } ]
}
`;

function applyLspEdits(text: string, edits: TextEdit[]): string {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const offsetAt = (p: { line: number; character: number }) => starts[p.line] + p.character;
  for (const e of [...edits].sort((a, b) => offsetAt(b.range.start) - offsetAt(a.range.start))) {
    text = text.slice(0, offsetAt(e.range.start)) + e.newText + text.slice(offsetAt(e.range.end));
  }
  return text;
}

function copyToScratch(scratch: string, file: string): string {
  const target = join(scratch, basename(file));
  copyFileSync(resolve(ROOT, file), target);
  return target;
}

describe('quota-state fix (built CLI)', () => {
  let scratch: string;
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'quota-state-fix-'));
  });

  it('repairs the example state file in place: order, provider id, dangling reference; the result checks clean', () => {
    const file = copyToScratch(scratch, 'examples/webshop.state.json');
    const before = readFileSync(file, 'utf8');
    const result = runQuotaState(['fix', file]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /applied 3 fixes/);
    assert.match(result.stdout, /Reorder resources into dependency order/);
    assert.match(result.stdout, /Point the provider reference at/);
    assert.match(result.stdout, /Remove the reference to .*orders-queue/);
    const after = readFileSync(file, 'utf8');
    assert.notEqual(after, before);
    assert.deepEqual(analyzeFile(file, after).diagnostics, []);
    assert.equal(runQuotaState(['check', file]).status, 0);
    // Indentation and key order kept: every line of the fixed file is a line of the original but
    // the dependency list that lost its last element (and so its comma).
    const original = new Set(before.split('\n'));
    const changedLines = after.split('\n').filter((line) => !original.has(line));
    assert.deepEqual(changedLines, ['                    "urn:pulumi:production::webshop::aws:rds/instance:Instance::orders-db"']);
    assert.doesNotMatch(after, /0d3c2b1a-0000-4000-8000-000000000000/, 'the provider reference points at the real id');
    assert.deepEqual(readdirSync(scratch).sort(), ['webshop.state.json', 'webshop.state.json.bak'], 'FILE.bak, as `state` keeps it; no temporary file or lock left behind');
    assert.equal(readFileSync(`${file}.bak`, 'utf8'), before);
    // A second run has nothing left to do.
    const again = runQuotaState(['fix', file]);
    assert.equal(again.status, 0);
    assert.match(again.stdout, /nothing to fix/);
  });

  it('--dry-run prints a unified diff that turns the file into what fix writes, and writes nothing', () => {
    const file = copyToScratch(scratch, 'examples/webshop.state.json');
    const before = readFileSync(file, 'utf8');
    const dry = runQuotaState(['fix', '--dry-run', file]);
    assert.equal(dry.status, 0, dry.stderr);
    assert.equal(readFileSync(file, 'utf8'), before, 'dry run leaves the file alone');
    const patch = dry.stdout.slice(0, dry.stdout.indexOf(`\n${file}: would apply`) + 1);
    assert.match(patch, /^--- a\/.*webshop\.state\.json\n\+\+\+ b\/.*webshop\.state\.json\n@@ -\d+,\d+ \+\d+,\d+ @@/);
    runQuotaState(['fix', file]);
    assert.equal(applyPatch(before, patch), readFileSync(file, 'utf8'));
  });

  it('writes nothing and exits 1 when the file stays invalid, listing what remains', () => {
    const file = copyToScratch(scratch, 'test/fixtures/state/references.state.json');
    const before = readFileSync(file, 'utf8');
    const mtime = statSync(file).mtimeMs;
    const result = runQuotaState(['fix', file]);
    assert.equal(result.status, 1, result.stdout + result.stderr);
    assert.equal(readFileSync(file, 'utf8'), before);
    assert.equal(statSync(file).mtimeMs, mtime);
    assert.match(result.stdout, /references\.state\.json: \d+ errors remain after \d+ fixes; nothing written/);
    assert.match(result.stdout, /^ {2}.*references\.state\.json:\d+:\d+: error dependency-cycle: /m);
    assert.match(result.stdout, /^ {2}.*references\.state\.json:\d+:\d+: error self-reference: /m);
    assert.deepEqual(readdirSync(scratch), ['references.state.json']);
  });

  it('quota files get the canonical subject spellings only, keeping comments and layout', () => {
    const file = join(scratch, 'aliases.quota.jsonc');
    writeFileSync(file, ALIASED_QUOTA);
    const result = runQuotaState(['fix', file]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.equal(readFileSync(file, 'utf8'), ALIASED_QUOTA.replace('"sizeall"', '"size:git:all"').replace('"sizelfs"', '"size:git:lfs"').replace('"size:wiki"', '"size:assets:wiki"'));
  });

  it('skips a file of neither kind, and exits 2 for a missing file without the usage text', () => {
    const other = join(scratch, 'notes.json');
    writeFileSync(other, '{"a": 1}');
    const skipped = runQuotaState(['fix', other]);
    assert.equal(skipped.status, 0);
    assert.match(skipped.stdout, /notes\.json: skipped/);
    const missing = runQuotaState(['fix', join(scratch, 'gone.state.json')]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /no such file/);
    assert.doesNotMatch(missing.stderr, /Usage:/);
  });

  describe('equals the editor quick fixes applied one by one', () => {
    let client: LspTestClient;
    before(async () => {
      client = await LspTestClient.start();
    });
    after(async () => client?.stop());

    /** Applies, through the real server, the preferred quick fix of the first diagnostic with a safe one, until none is left. */
    async function fixInEditor(uri: string, text: string, safe: readonly string[], languageId: string): Promise<string> {
      let diagnostics = await client.open(uri, text, languageId);
      for (let round = 0; round < 100; round++) {
        let applied = false;
        for (const diagnostic of diagnostics as Diagnostic[]) {
          if (!safe.includes(String(diagnostic.code))) continue;
          const actions = await client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
            textDocument: { uri },
            range: diagnostic.range,
            context: { diagnostics: [diagnostic] },
          });
          const preferred = actions.find((a) => a.isPreferred);
          if (!preferred) continue;
          text = applyLspEdits(text, (preferred.edit as WorkspaceEdit).changes![uri]);
          diagnostics = await client.change(uri, text);
          applied = true;
          break;
        }
        if (!applied) return text;
      }
      throw new Error('the quick fixes did not converge');
    }

    const cases = [
      'examples/webshop.state.json',
      'test/fixtures/state/references.state.json',
      'test/fixtures/state/providers.state.json',
      'test/fixtures/state/records.state.json',
      'test/fixtures/state/deployment.state.json',
    ];
    for (const file of cases) {
      it(file, async () => {
        const text = readFileSync(resolve(ROOT, file), 'utf8');
        const copy = copyToScratch(scratch, file);
        const dry = runQuotaState(['fix', '--dry-run', copy]);
        const cliPatch = dry.stdout.includes('\n@@') ? dry.stdout.slice(0, dry.stdout.indexOf(`\n${copy}: `) + 1) : '';
        const cliResult = cliPatch ? applyPatch(text, cliPatch) : text;
        assert.equal(typeof cliResult, 'string');
        const editorResult = await fixInEditor(pathToFileURL(copy).href, text, SAFE_STATE_FIXES, 'json');
        assert.notEqual(editorResult, text, 'the case has something to fix');
        assert.equal(cliResult, editorResult);
      });
    }

    it('a quota file with aliases', async () => {
      const file = join(scratch, 'aliases.quota.jsonc');
      writeFileSync(file, ALIASED_QUOTA);
      const editorResult = await fixInEditor(pathToFileURL(file).href, ALIASED_QUOTA, SAFE_QUOTA_FIXES, 'jsonc');
      assert.equal(runQuotaState(['fix', file]).status, 0);
      assert.equal(readFileSync(file, 'utf8'), editorResult);
    });
  });
});
