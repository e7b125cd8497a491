/** Editing help and previews for quota files, through the real language server (issue: quota files). */
import { strict as assert } from 'node:assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeLens, CompletionList, Diagnostic, Hover, InlayHint, Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromWire, parseJsonExact, toWire } from '../../shared/api/json';
import type { QuotaInfo } from '../../shared/api/types';
import { EvaluationPreviewRequest, ExplainAccountRequest, LiveUsageNotification, QuotaFileRequest } from '../../shared/protocol';
import { quotaUsedFromLeafUsage } from '../../shared/quota/quotaInfo';
import { zeroUsage } from '../../shared/quota/usage';
import { cursor, LspTestClient } from '../helpers/lspClient';
import { runQuotaState } from '../helpers/processes';

const PREVIEW = `{
  "defaultGroups": ["free"],
  "rules": [
    { "name": "repos-1g", "limit": "1 GiB", "subjects": ["size:repos:all"] },
    { "name": "lfs", "limit": "100 MiB", "subjects": ["size:git:lfs"] }
  ],
  "groups": [
    { "name": "free", "rules": ["repos-1g", "lfs"] },
    { "name": "pro", "rules": ["repos-1g"] }
  ],
  "assignments": { "carol": ["pro"] },
  "usage": {
    "alice": { "size:repos:public": "300 MiB", "size:git:lfs": "150 MiB" },
    "carol": { "size:repos:private": "2 GiB" }
  }
}
`;

let counter = 0;
function uniqueUri(): string {
  return `file:///workspace/doc${++counter}.quota.jsonc`;
}

function apply(text: string, edit: WorkspaceEdit, uri: string): string {
  const edits = edit.changes?.[uri] ?? [];
  return TextDocument.applyEdits(TextDocument.create(uri, 'jsonc', 1, text), edits);
}

describe('quota files through the language server: editing help and previews', () => {
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  after(() => client.stop());

  async function openAt(textWithCursor: string) {
    const { text, position } = cursor(textWithCursor);
    const uri = uniqueUri();
    const diagnostics = await client.open(uri, text, 'jsonc');
    return { uri, text, position, diagnostics };
  }

  describe('completion', () => {
    const labels = async (textWithCursor: string) => {
      const { uri, position } = await openAt(textWithCursor);
      const result = await client.request<unknown, CompletionList>('textDocument/completion', { textDocument: { uri }, position });
      return result.items;
    };
    it("offers every canonical subject, with its meaning, inside a rule's subjects", async () => {
      const items = await labels('{ "rules": [ { "name": "r", "limit": 1, "subjects": ["|"] } ] }');
      assert.equal(items.length, 14);
      const repos = items.find((i) => i.label === 'size:repos:public')!;
      assert.equal(repos.detail, 'All public repositories, excluding LFS');
      assert.ok(!items.some((i) => i.label === 'sizeall'), 'aliases are accepted but never offered');
    });
    it('offers leaf subjects for usage keys', async () => {
      const items = await labels('{ "usage": { "alice": { "|": 1 } } }');
      assert.deepEqual(items.map((i) => i.label).sort(), [
        'size:assets:artifacts',
        'size:assets:attachments:issues',
        'size:assets:attachments:releases',
        'size:assets:packages:all',
        'size:git:lfs',
        'size:repos:private',
        'size:repos:public',
      ]);
    });
    it('offers rule names inside a group', async () => {
      const items = await labels('{ "rules": [ { "name": "a", "limit": 1, "subjects": [] }, { "name": "b", "limit": 2, "subjects": [] } ], "groups": [ { "name": "g", "rules": ["|"] } ] }');
      assert.deepEqual(
        items.map((i) => i.label),
        ['a', 'b'],
      );
    });
    it('offers group names in defaultGroups and assignments', async () => {
      const groups = '"groups": [ { "name": "free", "rules": [] }, { "name": "pro", "rules": [] } ]';
      assert.deepEqual(
        (await labels(`{ ${groups}, "defaultGroups": ["|"] }`)).map((i) => i.label),
        ['free', 'pro'],
      );
      assert.deepEqual(
        (await labels(`{ ${groups}, "assignments": { "alice": ["|"] } }`)).map((i) => i.label),
        ['free', 'pro'],
      );
    });
    it('offers account names for assignment keys and owners', async () => {
      const accounts = '"accounts": [ { "name": "alice", "type": "user" }, { "name": "acme", "type": "org", "owners": [] } ]';
      assert.deepEqual(
        (await labels(`{ ${accounts}, "assignments": { "|": [] } }`)).map((i) => i.label),
        ['alice', 'acme'],
      );
      const owners = await labels(`{ ${accounts}, "repos": [ { "owner": "|", "name": "x" } ] }`);
      assert.deepEqual(
        owners.map((i) => i.label),
        ['alice', 'acme'],
      );
      assert.equal(owners[1].detail, 'org');
    });
    it('replaces the whole string the cursor is in', async () => {
      const { uri, text, position } = await openAt('{ "rules": [ { "name": "r", "limit": 1, "subjects": ["size:re|"] } ] }');
      const { items } = await client.request<unknown, CompletionList>('textDocument/completion', { textDocument: { uri }, position });
      const item = items.find((i) => i.label === 'size:repos:all')!;
      const edited = TextDocument.applyEdits(TextDocument.create(uri, 'jsonc', 1, text), [item.textEdit as { range: never; newText: string }]);
      assert.deepEqual(parse(edited).rules[0].subjects, ['size:repos:all']);
    });
  });

  describe('hover', () => {
    const hover = async (textWithCursor: string) => {
      const { uri, position } = await openAt(textWithCursor);
      const result = await client.request<unknown, Hover | null>('textDocument/hover', { textDocument: { uri }, position });
      return result ? (result.contents as { value: string }).value : null;
    };
    it('shows a size in bytes and in human form', async () => {
      const value = await hover('{ "rules": [ { "name": "r", "limit": "1 G|iB", "subjects": [] } ] }');
      assert.match(value!, /\*\*1 GiB\*\* — 1073741824 bytes \(1 GiB\)/);
      assert.match(value!, /limit of rule "r"/);
    });
    it("shows a subject's meaning and ancestors, and explains an alias", async () => {
      const value = await hover('{ "rules": [ { "name": "r", "limit": 1, "subjects": ["size:repos:pub|lic", "sizelfs"] } ] }');
      assert.match(value!, /All public repositories, excluding LFS/);
      assert.match(value!, /`size:repos:all` → `size:git:all` → `size:all`/);
      const alias = await hover('{ "rules": [ { "name": "r", "limit": 1, "subjects": ["sizel|fs"] } ] }');
      assert.match(alias!, /`sizelfs` is the seed's spelling of `size:git:lfs`/);
    });
    it("shows where a rule is used, with each account's figures", async () => {
      const value = await hover(PREVIEW.replace('"name": "repos-1g"', '"name": "repos|-1g"'));
      assert.match(value!, /Used by groups \*\*free\*\*, \*\*pro\*\*/);
      assert.match(value!, /- alice: 300 MiB \/ 1 GiB — stands/);
      assert.match(value!, /- carol: 2 GiB \/ 1 GiB — fails/);
    });
    it("shows an account's resolved group list and its verdict for every subject", async () => {
      const value = await hover(PREVIEW.replace('"carol": ["pro"]', '"ca|rol": ["pro"]'));
      assert.match(value!, /Account \*\*carol\*\*: assigned groups \*\*pro\*\*/);
      assert.match(value!, /\*\*Over quota\*\*/);
      assert.match(value!, /\| `size:repos:private` \| over quota \| rule repos-1g of group pro fails \(2 GiB of 1 GiB\), so Forgejo refuses size:repos:private \|/);
      // Forgejo asks the rules covering the wiki too (size:assets:all, size:all): pro has none.
      assert.match(
        value!,
        /\| `size:assets:wiki` \| over quota \| size:assets:wiki is not measured \(always 0 bytes\), but Forgejo still asks the rules covering it; no rule of group pro covers size:assets:wiki/,
      );
      // Refused although nothing of it is used: said in words, not just "over quota".
      assert.match(value!, /\| `size:git:lfs` \| over quota \| no rule of group pro covers size:git:lfs, so Forgejo refuses it \|/);
      const alice = await hover(PREVIEW.replace('"alice": {', '"al|ice": {'));
      assert.match(alice!, /Account \*\*alice\*\*: default groups \*\*free\*\*/);
    });
  });

  describe('quick fixes', () => {
    async function fixes(text: string) {
      const uri = uniqueUri();
      const diagnostics = await client.open(uri, text, 'jsonc');
      const actions = await client.request<unknown, CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } },
        context: { diagnostics },
      });
      return { uri, diagnostics, actions };
    }
    async function applyFix(text: string, title: string): Promise<{ after: string; diagnostics: Diagnostic[] }> {
      const { uri, actions } = await fixes(text);
      const action = actions.find((a) => a.title === title);
      assert.ok(action, `no fix "${title}" among ${actions.map((a) => a.title).join(' | ')}`);
      const after = apply(text, action.edit!, uri);
      return { after, diagnostics: await client.change(uri, after) };
    }
    it('did you mean: an unknown subject', async () => {
      const { after, diagnostics } = await applyFix(
        '{ "rules": [ { "name": "r", "limit": 1, "subjects": ["size:repo:all"] } ], "groups": [ { "name": "g", "rules": ["r"] } ] }',
        'Change to "size:repos:all"',
      );
      assert.deepEqual(parse(after).rules[0].subjects, ['size:repos:all']);
      assert.deepEqual(diagnostics, []);
    });
    it('canonical spelling for an alias', async () => {
      const { after, diagnostics } = await applyFix(
        '{ "rules": [ { "name": "r", "limit": 1, "subjects": ["size:wiki"] } ], "groups": [ { "name": "g", "rules": ["r"] } ] }',
        'Use the canonical spelling "size:assets:wiki"',
      );
      assert.deepEqual(parse(after).rules[0].subjects, ['size:assets:wiki']);
      assert.deepEqual(diagnostics, []);
    });
    it('creates a missing rule stub, indented and written like the rule before it, which keeps its bytes', async () => {
      const text = '{\n    "rules": [\n        { "name": "a", "limit": 1, "subjects": ["size:all"] }\n    ],\n    "groups": [ { "name": "g", "rules": ["a", "b"] } ]\n}\n';
      const { after, diagnostics } = await applyFix(text, 'Create rule "b"');
      assert.deepEqual(parse(after).rules[1], { name: 'b', limit: -1, subjects: ['size:all'] });
      assert.match(after, /\n {8}\{ "name": "a", "limit": 1, "subjects": \["size:all"\] \},\n {8}\{ "name": "b", "limit": -1, "subjects": \["size:all"\] \}\n {4}\]/);
      assert.deepEqual(diagnostics, []);
    });
    it('creates a missing group stub, even when there is no groups array', async () => {
      const { after, diagnostics } = await applyFix('{ "defaultGroups": ["free"] }', 'Create group "free"');
      assert.deepEqual(parse(after).groups, [{ name: 'free', rules: [] }]);
      assert.deepEqual(diagnostics, []);
    });
    it('removes an unused rule and leaves valid JSON', async () => {
      const text =
        '{\n  "rules": [\n    { "name": "used", "limit": 1, "subjects": ["size:all"] },\n    { "name": "spare", "limit": 2, "subjects": ["size:all"] }\n  ],\n  "groups": [ { "name": "g", "rules": ["used"] } ]\n}\n';
      const { after, diagnostics } = await applyFix(text, 'Remove unused rule "spare"');
      assert.deepEqual(
        parse(after).rules.map((r: { name: string }) => r.name),
        ['used'],
      );
      assert.deepEqual(diagnostics, []);
    });
    it('did you mean: an unknown rule name', async () => {
      const { after } = await applyFix('{ "rules": [ { "name": "repos", "limit": 1, "subjects": ["size:all"] } ], "groups": [ { "name": "g", "rules": ["repo"] } ] }', 'Change to rule "repos"');
      assert.deepEqual(parse(after).groups[0].rules, ['repos']);
    });
  });

  describe('navigation and rename', () => {
    it("goes to a rule's definition and finds its references", async () => {
      const { uri, position } = await openAt(PREVIEW.replace('"rules": ["repos-1g"]', '"rules": ["rep|os-1g"]'));
      const definition = await client.request<unknown, Location[]>('textDocument/definition', { textDocument: { uri }, position });
      assert.equal(definition.length, 1);
      assert.equal(definition[0].range.start.line, 3);
      const references = await client.request<unknown, Location[]>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } });
      assert.deepEqual(
        references.map((r) => r.range.start.line),
        [3, 7, 8],
      );
    });
    it('renames a rule everywhere', async () => {
      const { uri, text, position } = await openAt(PREVIEW.replace('"name": "repos-1g"', '"name": "repos-|1g"'));
      const edit = await client.request<unknown, WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position, newName: 'repos-big' });
      const after = parse(apply(text, edit, uri));
      assert.equal(after.rules[0].name, 'repos-big');
      assert.deepEqual(
        after.groups.map((g: { rules: string[] }) => g.rules),
        [['repos-big', 'lfs'], ['repos-big']],
      );
    });
    it('renames a group in defaultGroups, assignments and its definition', async () => {
      const { uri, text, position } = await openAt(PREVIEW.replace('"defaultGroups": ["free"]', '"defaultGroups": ["fr|ee"]'));
      const edit = await client.request<unknown, WorkspaceEdit>('textDocument/rename', { textDocument: { uri }, position, newName: 'basic' });
      const after = parse(apply(text, edit, uri));
      assert.deepEqual(after.defaultGroups, ['basic']);
      assert.equal(after.groups[0].name, 'basic');
    });
    it('refuses a rename onto an existing name, with a reason', async () => {
      const { uri, position } = await openAt(PREVIEW.replace('"name": "lfs"', '"name": "l|fs"'));
      await assert.rejects(client.request('textDocument/rename', { textDocument: { uri }, position, newName: 'repos-1g' }), /There is already a rule named "repos-1g"/);
    });
    it('lists rules, groups and accounts as document symbols', async () => {
      const uri = uniqueUri();
      await client.open(uri, PREVIEW);
      const symbols = await client.request<unknown, Array<{ name: string; children?: Array<{ name: string }> }>>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.deepEqual(
        symbols.map((s) => [s.name, s.children?.map((c) => c.name)]),
        [
          ['rules', ['repos-1g', 'lfs']],
          ['groups', ['free', 'pro']],
        ],
      );
    });
  });

  describe('evaluation previews', () => {
    let uri: string;
    before(async () => {
      uri = uniqueUri();
      await client.open(uri, PREVIEW);
    });
    const hints = async () => {
      const result = await client.request<unknown, InlayHint[]>('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } });
      return result.map((h) => `${h.position.line}:${h.label}`);
    };
    const lenses = async () => {
      const result = await client.request<unknown, CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      return result.map((l) => `${l.range.start.line}:${l.command?.title}`);
    };
    it("shows the verdict first, then account and used/limit, at each rule's limit", async () => {
      assert.deepEqual(await hints(), ['3:✓ alice 300 MiB/1 GiB', '3:✗ carol 2 GiB/1 GiB', '4:✗ alice 150 MiB/100 MiB']);
    });
    it('shows on each group which accounts it stands for, or the first failing rule', async () => {
      assert.deepEqual(await lenses(), ['7:✗ fails for alice (lfs: 150 MiB / 100 MiB)', '8:✗ fails for carol (repos-1g: 2 GiB / 1 GiB)']);
    });
    it('updates as the user types', async () => {
      await client.change(uri, PREVIEW.replace('"limit": "100 MiB"', '"limit": "200 MiB"'));
      assert.deepEqual(await lenses(), ['7:✓ stands for alice', '8:✗ fails for carol (repos-1g: 2 GiB / 1 GiB)']);
      assert.ok((await hints()).includes('4:✓ alice 150 MiB/200 MiB'));
    });
    it("includes the signed-in user's live usage, marked as live", async () => {
      const usage = { ...zeroUsage(), 'size:repos:public': 10 * 2 ** 20 };
      await client.notify(LiveUsageNotification, { account: 'dave', server: 'http://127.0.0.1:1/api/v1', quota: { used: quotaUsedFromLeafUsage(usage), groups: [] } });
      // The notification has no answer: wait until the previews reflect it.
      let lines: string[] = [];
      for (let i = 0; i < 50 && !lines.some((l) => l.includes('dave')); i++) {
        lines = await lenses();
        if (!lines.some((l) => l.includes('dave'))) await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(lines, ['7:✓ stands for alice, dave (live)', '8:✗ fails for carol (repos-1g: 2 GiB / 1 GiB)']);
      assert.ok((await hints()).includes('3:✓ dave (live) 10 MiB/1 GiB'));
      const report = await client.request(EvaluationPreviewRequest, { uri });
      assert.deepEqual(report!.accounts.find((a) => a.name === 'dave')!.live, { server: 'http://127.0.0.1:1/api/v1' });
      await client.notify(LiveUsageNotification, null);
    });
    it('the preview request returns exactly what `quota-state evaluate --format json` prints', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'quota-preview-'));
      const file = join(folder, 'preview.quota.jsonc');
      writeFileSync(file, PREVIEW);
      const previewUri = `file://${file}`;
      await client.open(previewUri, PREVIEW);
      const report = await client.request(EvaluationPreviewRequest, { uri: previewUri });
      const cli = runQuotaState(['evaluate', file, '--format', 'json']);
      assert.equal(cli.status, 0, cli.stderr);
      assert.deepEqual(fromWire(report), parseJsonExact(cli.stdout));
      const demo = runQuotaState(['evaluate', 'examples/demo.quota.jsonc', '--format', 'json', '--subject', 'size:repos:all']);
      const demoUri = uniqueUri();
      const { readFileSync } = await import('node:fs');
      await client.open(demoUri, readFileSync('examples/demo.quota.jsonc', 'utf8'));
      assert.deepEqual(fromWire(await client.request(EvaluationPreviewRequest, { uri: demoUri, subject: 'size:repos:all' })), parseJsonExact(demo.stdout));
    });
    it('the quota file request gives Push and the dashboard the model, usage and errors, for open and unopened text', async () => {
      const summary = await client.request(QuotaFileRequest, { uri, text: PREVIEW });
      assert.ok(summary);
      assert.deepEqual(summary.errors, []);
      assert.deepEqual(
        summary.model.rules.map((r) => r.name),
        JSON.parse(PREVIEW.replace(/\/\/.*$/gm, '')).rules.map((r: { name: string }) => r.name),
      );
      assert.ok(Object.keys(summary.usage).includes('alice'));
      const broken = await client.request(QuotaFileRequest, { uri: uniqueUri(), text: '{ "rules": [ { "name": "r", "subjects": ["size:all"] } ] }' });
      assert.deepEqual(
        broken!.errors.map((e) => e.line),
        [0],
      );
      assert.match(broken!.errors[0].message, /limit/);
    });
  });

  describe('the engine in the server: one account explained for the client, exactly past 2^53', () => {
    const MAX = 9007199254740991n; // 2^53 - 1, the largest usage a quota file takes per subject
    it("explains a quota API's answer for an account, its usage and limits beyond 2^53 exact both ways", async () => {
      const quota: QuotaInfo = {
        used: quotaUsedFromLeafUsage({ ...zeroUsage(), 'size:repos:public': 2n ** 60n + 1n, 'size:repos:private': 2n ** 53n + 1n }),
        groups: [{ name: 'big', rules: [{ name: 'repos', limit: 2n ** 62n + 3n, subjects: ['size:repos:all'] }] }],
      };
      const result = await client.request(ExplainAccountRequest, { account: 'zed', subjects: ['size:repos:all'], quota: toWire(quota), serverVersion: '11.0.3+gitea-1.22.0' });
      assert.ok(result && 'explanation' in result, JSON.stringify(result));
      const explanation = fromWire(result.explanation);
      const row = explanation.subjects[0];
      assert.equal(row.used, 2n ** 60n + 1n + 2n ** 53n + 1n);
      assert.equal(row.decidedBy?.rule.limit, 2n ** 62n + 3n);
      assert.equal(row.headroom, 2n ** 62n + 3n - (2n ** 60n + 2n ** 53n + 2n));
      assert.equal(row.allowed, true);
      assert.equal(explanation.forgejo.version, '11.0.3+gitea-1.22.0');
    });
    it("explains an account of a quota file (open or not) under the file's version, and refuses a file with errors", async () => {
      const text = PREVIEW.replace('"carol": { "size:repos:private": "2 GiB" }', `"carol": { "size:repos:private": ${MAX}, "size:repos:public": ${MAX} }`).replace(
        '"limit": "1 GiB"',
        `"limit": ${2n ** 60n}`,
      );
      const result = await client.request(ExplainAccountRequest, { account: 'carol', subjects: ['size:repos:all'], file: { uri: uniqueUri(), text } });
      assert.ok(result && 'explanation' in result, JSON.stringify(result));
      const row = fromWire(result.explanation).subjects[0];
      assert.equal(row.used, 2n * MAX);
      assert.equal(row.decidedBy?.rule.limit, 2n ** 60n);
      const broken = await client.request(ExplainAccountRequest, { account: 'carol', subjects: [], file: { uri: uniqueUri(), text: '{ "rules": [ { "name": "r", "subjects": ["size:all"] } ] }' } });
      assert.deepEqual(broken, { refused: 'errors' });
      await assert.rejects(client.request(ExplainAccountRequest, { account: 'carol', subjects: [] }), /needs a quota or a file/);
    });
  });
});
