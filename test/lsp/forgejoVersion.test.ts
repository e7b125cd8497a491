/**
 * The Forgejo version through the real language server: the file's `forgejoVersion`, the
 * `quotaState.forgejoVersion` setting and the connected server's version (sent with the live usage)
 * decide the previews; the language status names the rules; a file whose version's generation
 * differs from the server's gets an Information diagnostic.
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, CompletionList, Diagnostic, Hover, InlayHint } from 'vscode-languageserver-protocol';
import { fromWire } from '../../shared/api/json';
import { DocumentStatusNotification, EvaluationPreviewRequest, LiveUsageNotification, type DocumentStatusParams } from '../../shared/protocol';
import { quotaUsedFromLeafUsage } from '../../shared/quota/quotaInfo';
import { zeroUsage } from '../../shared/quota/usage';
import { cursor, LspTestClient } from '../helpers/lspClient';

/** One rule at exactly its limit: generation 1 (used <= limit) stands, generation 2 (used < limit) fails. */
function quotaFile(version?: string): string {
  return `{
  ${version ? `"forgejoVersion": "${version}",` : ''}
  "rules": [ { "name": "repos-1k", "limit": 1024, "subjects": ["size:repos:all"] } ],
  "groups": [ { "name": "free", "rules": ["repos-1k"] } ],
  "defaultGroups": ["free"],
  "usage": { "alice": { "size:repos:public": 1024 } }
}
`;
}

const SERVER = 'http://127.0.0.1:1/api/v1';
const live = (version?: string) => ({ account: 'dave', server: SERVER, quota: { used: quotaUsedFromLeafUsage(zeroUsage()), groups: [] }, ...(version ? { version } : {}) });

let counter = 0;
const uniqueUri = () => `file:///workspace/version${++counter}.quota.jsonc`;

describe('the Forgejo version through the language server', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(() => client.stop());

  async function hintsOf(uri: string): Promise<string[]> {
    const hints = await client.request<unknown, InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } } });
    return hints.map((h) => String(h.label));
  }

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    let value = await read();
    for (let i = 0; i < 100 && !ok(value); i++) {
      await new Promise((r) => setTimeout(r, 20));
      value = await read();
    }
    return value;
  }

  it("follows the file's forgejoVersion: 11.0.3 stands at the limit, 15.0.0 does not", async () => {
    const old = uniqueUri();
    await client.open(old, quotaFile('11.0.3'), 'jsonc');
    assert.deepEqual(await hintsOf(old), ['✓ alice 1 KiB/1 KiB']);
    const report = await client.request(EvaluationPreviewRequest, { uri: old });
    assert.deepEqual(report!.forgejo, { version: '11.0.3', rules: 'Forgejo 11.0 rules', generation: 1, source: 'file' });
    const current = uniqueUri();
    await client.open(current, quotaFile('15.0.0'), 'jsonc');
    assert.deepEqual(await hintsOf(current), ['✗ alice 1 KiB/1 KiB']);
  });

  it('shows the rules in force in the language status, and says when it is the default', async () => {
    const uri = uniqueUri();
    await client.open(uri, quotaFile(), 'jsonc');
    const status = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === uri && s.forgejo !== undefined);
    assert.equal(status.forgejo!.rules, 'Forgejo 15.0 rules');
    assert.equal(status.forgejo!.source, 'default');
    assert.match(status.forgejo!.description, /no version given: the default 15\.0\.9, the supported LTS line/);
    const declared = uniqueUri();
    await client.open(declared, quotaFile('11.0.3+gitea-1.22.0'), 'jsonc');
    const declaredStatus = await client.waitForStatus<DocumentStatusParams>((s) => s.uri === declared && s.forgejo !== undefined);
    assert.equal(declaredStatus.forgejo!.rules, 'Forgejo 11.0 rules');
    assert.equal(DocumentStatusNotification.method, 'quotaState/documentStatus');
  });

  it("follows the connected server's version when the file declares none, and flags a file of another generation", async () => {
    const plain = uniqueUri();
    await client.open(plain, quotaFile(), 'jsonc');
    assert.deepEqual(await hintsOf(plain), ['✗ alice 1 KiB/1 KiB']);
    const declared = uniqueUri();
    const declaredText = quotaFile('15.0.0');
    await client.open(declared, declaredText, 'jsonc');
    const flagged = client.waitForDiagnostics(declared);
    await client.notify(LiveUsageNotification, live('11.0.3+gitea-1.22.0'));
    try {
      assert.deepEqual(
        await until(
          () => hintsOf(plain),
          (h) => h.includes('✓ alice 1 KiB/1 KiB'),
        ),
        ['✓ alice 1 KiB/1 KiB', '✓ dave (live) 0 B/1 KiB'],
      );
      // The file's own version still wins over the server's.
      assert.ok((await hintsOf(declared)).includes('✗ alice 1 KiB/1 KiB'));
      let diagnostics: Diagnostic[] = (await flagged).diagnostics;
      for (let i = 0; i < 50 && !diagnostics.some((d) => d.code === 'forgejo-version-mismatch'); i++) diagnostics = (await client.waitForDiagnostics(declared)).diagnostics;
      const mismatch = diagnostics.find((d) => d.code === 'forgejo-version-mismatch')!;
      assert.ok(mismatch, JSON.stringify(diagnostics));
      assert.equal(mismatch.severity, 3);
      assert.match(String(mismatch.message), /declares Forgejo 15\.0\.0 \(Forgejo 15\.0 rules\), but http:\/\/127\.0\.0\.1:1\/api\/v1 runs 11\.0\.3\+gitea-1\.22\.0/);
      assert.deepEqual(mismatch.data, { fileVersion: '15.0.0', serverVersion: '11.0.3+gitea-1.22.0', fileGeneration: 2, serverGeneration: 1 });
      const actions = await client.request<unknown, CodeAction[]>('textDocument/codeAction', { textDocument: { uri: declared }, range: mismatch.range, context: { diagnostics: [mismatch] } });
      assert.ok(actions.some((a) => a.title === "Use the connected server's version 11.0.3+gitea-1.22.0"));
    } finally {
      await client.notify(LiveUsageNotification, null);
    }
    assert.deepEqual(
      await until(
        () => hintsOf(plain),
        (h) => h.length === 1 && h[0].startsWith('✗'),
      ),
      ['✗ alice 1 KiB/1 KiB'],
    );
  });

  it('completes the release lines and explains what a version does differently', async () => {
    const { text, position } = cursor('{ "forgejoVersion": "|" }');
    const uri = uniqueUri();
    await client.open(uri, text, 'jsonc');
    const items = (await client.request<unknown, CompletionList>('textDocument/completion', { textDocument: { uri }, position })).items;
    assert.deepEqual(
      items.map((i) => i.label),
      ['15.0.9', '14.0.5', '13.0.5', '12.0.4', '12.0.3', '11.0.16', '10.0.3', '9.0.3'],
    );
    assert.equal(items.find((i) => i.label === '11.0.16')!.detail, 'Forgejo 11.0 rules');
    const hoverAt = cursor('{ "forgejoVersion": "11.0|.3" }');
    const hoverUri = uniqueUri();
    await client.open(hoverUri, hoverAt.text, 'jsonc');
    const hover = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri: hoverUri }, position: hoverAt.position });
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /Forgejo 11\.0 rules/);
    assert.match(value, /a rule with limit -1 covers every subject/);
    assert.match(value, /`size:all` counts repositories twice/);
  });

  it('an int64 limit in the file: previews and hovers work, and the preview request carries it exactly', async () => {
    const uri = uniqueUri();
    const text =
      '{ "rules": [{ "name": "max", "limit": 9223372036854775807, "subjects": ["size:all"] }], "groups": [{ "name": "g", "rules": ["max"] }], "defaultGroups": ["g"], "usage": { "dora": { "size:repos:public": 1 } } }';
    assert.deepEqual(await client.open(uri, text, 'jsonc'), []);
    assert.deepEqual(await hintsOf(uri), ['✓ dora 1 B/8 EiB']);
    const report = await client.request(EvaluationPreviewRequest, { uri });
    // Plain JSON would round it to 9223372036854775808: it crosses as its digits, and comes back exact.
    assert.deepEqual(report!.accounts[0].groups[0].rules[0].limit, { $int64: '9223372036854775807' });
    assert.equal(fromWire(report)!.accounts[0].groups[0].rules[0].limit, 9223372036854775807n);
    const hover = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: text.indexOf('922') + 3 } });
    assert.match((hover.contents as { value: string }).value, /9223372036854775807 bytes \(8 EiB\)/);
  });

  it("names the subject the version's API branch creation asks", async () => {
    const hoverOn = async (version: string, subject: string) => {
      const at = cursor(`{ "forgejoVersion": "${version}", "rules": [{ "name": "r", "limit": 1, "subjects": ["${subject.slice(0, 6)}|${subject.slice(6)}"] }] }`);
      const uri = uniqueUri();
      await client.open(uri, at.text, 'jsonc');
      const hover = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: at.position });
      return (hover.contents as { value: string }).value;
    };
    assert.match(await hoverOn('11.0.3', 'size:git:all'), /Forgejo 11\.0 asks this subject when a branch is created through the API/);
    assert.doesNotMatch(await hoverOn('11.0.3', 'size:repos:all'), /branch is created/);
    assert.match(await hoverOn('15.0.3', 'size:repos:all'), /Forgejo 15\.0 asks this subject when a branch is created through the API/);
  });

  it('reports a Gitea version as having no quota API', async () => {
    const diagnostics = await client.open(uniqueUri(), quotaFile('1.22.0'), 'jsonc');
    const invalid = diagnostics.find((d) => d.code === 'invalid-forgejo-version');
    assert.ok(invalid);
    assert.match(String(invalid.message), /Gitea has no quota API/);
    assert.equal(invalid.severity, 1);
  });

  it('follows the quotaState.forgejoVersion setting when the file declares none', async () => {
    const configured = await LspTestClient.start({ initializationOptions: { settings: { forgejoVersion: '12.0.3' } } });
    try {
      const uri = uniqueUri();
      await configured.open(uri, quotaFile(), 'jsonc');
      const report = await configured.request(EvaluationPreviewRequest, { uri });
      assert.deepEqual(report!.forgejo, { version: '12.0.3', rules: 'Forgejo 12.0 rules', generation: 1, source: 'setting' });
      assert.equal(report!.accounts[0].groups[0].stands, true);
    } finally {
      await configured.stop();
    }
  });
});
