/**
 * The language server speaks the language of the bundle the client gives it at initialize
 * (`initializationOptions.l10nBundle`, which is `vscode.l10n.bundle`), on its own thread and in
 * the state analysis worker alike, while codes and ranges stay what they are. The CLI is never
 * given a bundle: it prints the English, as the editor does without one (the editor–CLI parity
 * tests start the server without a bundle for that reason).
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { generateState } from '../bench/generate';
import { runQuotaState } from '../helpers/processes';
import { LspTestClient } from './client';

/** Two real messages of the bundle (l10n/bundle.l10n.json), pseudo-translated: one of quota files, one of state files. */
const UNUSED_RULE = 'Rule "{0}" is not used by any group';
const NOT_PART_OF = 'Property "{0}" is not part of {1}: Pulumi ignores this property';
const BUNDLE = {
  [UNUSED_RULE]: '[Ŕüļé "{0}" ïš ñöţ üšéð ƀý åñý ĝŕöüþ]',
  [NOT_PART_OF]: '[Þŕöþéŕţý "{0}" ïš ñöţ þåŕţ öƒ {1}: Þüļüɱï ïĝñöŕéš ţĥïš þŕöþéŕţý]',
};

const QUOTA = '{ "rules": [ { "name": "spare", "limit": "1 GiB", "subjects": ["size:all"] } ], "groups": [] }';
/** A property Pulumi ignores on the first record (the stack): an unknown-property diagnostic. */
const withColour = (state: string) => state.replace('"custom": false,', '"custom": false, "colour": 1,');
const SMALL_STATE = withColour(generateState({ resources: 3, seed: 5 }));
/** Over the server's main-thread limit (256 KiB): analysed in the worker. */
const LARGE_STATE = withColour(generateState({ resources: 120, seed: 6 }));

const shape = (diagnostics: Diagnostic[]) => diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range }));

describe('the language server in the language of its l10n bundle', function () {
  this.timeout(120_000);
  let dir: string;
  let english: LspTestClient;
  let translated: LspTestClient;
  const files: Record<string, { path: string; uri: string; text: string; languageId: string }> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quota-state-l10n-lsp-'));
    for (const [name, text, languageId] of [
      ['spare.quota.jsonc', QUOTA, 'jsonc'],
      ['small.state.json', SMALL_STATE, 'json'],
      ['large.state.json', LARGE_STATE, 'json'],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, text);
      files[name] = { path, uri: pathToFileURL(path).href, text, languageId };
    }
    assert.ok(LARGE_STATE.length > 256 * 1024, 'the large state file is analysed in the worker');
    english = await LspTestClient.start();
    translated = await LspTestClient.start({ initializationOptions: { l10nBundle: BUNDLE } });
  });
  after(async () => {
    await english?.stop();
    await translated?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The diagnostics both servers publish for one file. */
  async function both(name: string): Promise<{ en: Diagnostic[]; xx: Diagnostic[] }> {
    const { uri, text, languageId } = files[name];
    return { en: await english.open(uri, text, languageId), xx: await translated.open(uri, text, languageId) };
  }

  it('a quota file: the translated message, with the same code, severity and range', async () => {
    const { en, xx } = await both('spare.quota.jsonc');
    assert.deepEqual(shape(xx), shape(en));
    const unused = (list: Diagnostic[]) => list.find((d) => d.code === 'unused-rule')!;
    assert.equal(unused(en).message, 'Rule "spare" is not used by any group');
    assert.equal(unused(xx).message, '[Ŕüļé "spare" ïš ñöţ üšéð ƀý åñý ĝŕöüþ]');
    translated.assertNoLoggedErrors();
  });

  it('a state file, on the server thread and in the analysis worker', async () => {
    for (const name of ['small.state.json', 'large.state.json']) {
      const { en, xx } = await both(name);
      assert.deepEqual(shape(xx), shape(en), name);
      const notPart = (list: Diagnostic[]) => list.find((d) => d.code === 'unknown-property')!;
      assert.equal(notPart(en).message, 'Property "colour" is not part of a resource record: Pulumi ignores this property', name);
      // The bundle has the sentence, not "a resource record": that part stays English, the rest is the bundle's.
      assert.equal(notPart(xx).message, '[Þŕöþéŕţý "colour" ïš ñöţ þåŕţ öƒ a resource record: Þüļüɱï ïĝñöŕéš ţĥïš þŕöþéŕţý]', name);
      // Messages the bundle does not have stay English.
      assert.deepEqual(
        xx.filter((d) => d.code !== 'unknown-property').map((d) => d.message),
        en.filter((d) => d.code !== 'unknown-property').map((d) => d.message),
      );
    }
    translated.assertNoLoggedErrors();
  });

  it('`quota-state check` prints the English the server publishes without a bundle', async () => {
    const names = Object.keys(files);
    const result = runQuotaState(['check', '--format', 'json', ...names.map((name) => files[name].path)]);
    assert.equal(result.status, 0, result.stderr); // warnings and information only
    const printed = JSON.parse(result.stdout) as Array<{ diagnostics: Array<{ code: string; message: string; range: Diagnostic['range'] }> }>;
    for (const [i, name] of names.entries()) {
      const published = english.lastDiagnostics(files[name].uri)!.diagnostics;
      assert.deepEqual(
        printed[i].diagnostics.map((d) => [d.code, d.message, d.range]),
        published.map((d) => [d.code, d.message, d.range]),
        name,
      );
    }
    assert.ok(!result.stdout.includes('ïš'), 'no pseudo-translation in the CLI');
  });
});
