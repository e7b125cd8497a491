/**
 * Forgejo app.ini files through the real language server: diagnostics of the quota sections,
 * group names checked against the workspace's quota file and against a live reference API
 * (the test plays the client: it fetches the groups over HTTP and sends them), the "could not
 * check" status, and hover, completion and quick fixes.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CompletionList, Diagnostic, Hover } from 'vscode-languageserver-protocol';
import { QuotaApiClient } from '../../shared/api/client';
import { DocumentStatusNotification, LiveGroupsNotification, type DocumentStatusParams } from '../../shared/protocol';
import { DEMO_TOKENS, startServer, type RunningServer } from '../api/helpers';
import { cursor, LspTestClient } from '../helpers/lspClient';
import { runQuotaState } from '../helpers/processes';

const QUOTA_FILE = `{
  "defaultGroups": ["free"],
  "rules": [{ "name": "r", "limit": "1 GiB", "subjects": ["size:all"] }],
  "groups": [{ "name": "free", "rules": ["r"] }, { "name": "pro", "rules": ["r"] }]
}
`;

const APP_INI = `[server]
ROOT_URL = https://forge.example/
[quota]
ENABLED = true
DEFAULT_GROUPS = free, prp
[quota.default]
TOTAL = 2G
`;

function codes(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.range.start.line + 1}:${d.code}`).sort();
}

describe('app.ini through the language server', () => {
  let client: LspTestClient;
  let dir: string;
  before(async () => {
    client = await LspTestClient.start();
    dir = mkdtempSync(join(tmpdir(), 'app-ini-lsp-'));
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function statusOf(uri: string): Promise<DocumentStatusParams> {
    // The status notification follows the diagnostics; wait for it without a timed assertion.
    for (;;) {
      const found = client.notifications.filter((n) => n.method === DocumentStatusNotification.method && (n.params as DocumentStatusParams).uri === uri).at(-1);
      if (found) return found.params as DocumentStatusParams;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('checks DEFAULT_GROUPS against the nearest quota file above the app.ini, with the CLI agreeing', async () => {
    const project = join(dir, 'with-quota');
    mkdirSync(join(project, 'custom', 'conf'), { recursive: true });
    writeFileSync(join(project, 'forge.quota.jsonc'), QUOTA_FILE);
    const path = join(project, 'custom', 'conf', 'app.ini');
    writeFileSync(path, APP_INI);
    const uri = pathToFileURL(path).href;
    const diagnostics = await client.open(uri, APP_INI, 'ini');
    assert.deepEqual(codes(diagnostics), ['5:unknown-default-group', '7:total-older-servers']);
    const unknown = diagnostics.find((d) => d.code === 'unknown-default-group')!;
    assert.match(String(unknown.message), /No group "prp" in forge\.quota\.jsonc/);
    assert.match((await statusOf(uri)).shape ?? '', /forge\.quota\.jsonc/);

    const cli = runQuotaState(['check', path]);
    assert.equal(cli.status, 0, cli.stderr);
    assert.match(cli.stdout, /app\.ini:5:24: warning unknown-default-group: No group "prp" in forge\.quota\.jsonc/);
    assert.match(cli.stdout, /app\.ini:7:9: warning total-older-servers/);

    const actions = (await client.request('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0].range,
      context: { diagnostics },
    })) as CodeAction[];
    const titles = actions.map((a) => a.title);
    assert.ok(titles.includes('Change to group "pro"'), titles.join(', '));
    const plainBytes = actions.find((a) => a.title.startsWith('Write TOTAL as plain bytes'))!;
    assert.deepEqual(
      plainBytes.edit?.changes?.[uri]?.map((e) => e.newText),
      ['2000000000'],
    );

    const hover = (await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 9 } })) as Hover;
    const hoverText = (hover.contents as { value: string }).value;
    assert.match(hoverText, /2000000000 bytes/);
    assert.match(hoverText, /2 GB = 1\.86 GiB/);

    const groupCompletion = cursor('[quota]\nDEFAULT_GROUPS = free, p|\n');
    await client.change(uri, groupCompletion.text);
    const groups = (await client.request('textDocument/completion', { textDocument: { uri }, position: groupCompletion.position })) as CompletionList;
    assert.deepEqual(
      groups.items.map((i) => i.label),
      ['pro'],
    );

    const keyCompletion = cursor('[quota.default]\n|\n');
    await client.change(uri, keyCompletion.text);
    const keys = (await client.request('textDocument/completion', { textDocument: { uri }, position: keyCompletion.position })) as CompletionList;
    assert.deepEqual(
      keys.items.map((i) => i.label),
      ['TOTAL'],
    );
    await client.close(uri);
  });

  it('with no quota file and no live groups says "could not check" once, not an error per name', async () => {
    const lonely = join(dir, 'lonely');
    mkdirSync(lonely);
    const path = join(lonely, 'app.ini');
    const uri = pathToFileURL(path).href;
    const diagnostics = await client.open(uri, '[quota]\nENABLED = true\nDEFAULT_GROUPS = free, whatever, nobody\n', 'ini');
    assert.deepEqual(codes(diagnostics), []);
    const status = await statusOf(uri);
    assert.equal(status.kind, 'appIni');
    assert.equal(status.unavailable?.length, 1);
    assert.match(status.unavailable![0].reason, /could not check/);
    await client.close(uri);
  });

  it('recognises other names through quotaState.files.appIni, and leaves other INI files alone', async () => {
    const custom = await LspTestClient.start({ initializationOptions: { settings: { files: { appIni: ['**/forgejo.ini'] } } } });
    try {
      const text = '[quota]\nEnabled = true\n';
      const named = await custom.open(pathToFileURL(join(dir, 'forgejo.ini')).href, text, 'ini');
      assert.deepEqual(codes(named), ['1:quota-disabled', '2:unknown-key']);
      assert.equal(await custom.openUnrecognised(pathToFileURL(join(dir, 'php.ini')).href, text, 'ini'), undefined, 'php.ini is left alone');
      // The default name no longer applies once the setting lists others.
      assert.equal(await custom.openUnrecognised(pathToFileURL(join(dir, 'app.ini')).href, text, 'ini'), undefined, 'app.ini is no longer named');
    } finally {
      await custom.stop();
    }
  });

  describe('against a live reference API', () => {
    let server: RunningServer;
    before(async () => {
      server = await startServer();
    });
    after(async () => {
      await server.stop();
    });

    it('a group created over the API makes the diagnostic go away after a refresh', async () => {
      const lonely = join(dir, 'live');
      mkdirSync(lonely);
      const uri = pathToFileURL(join(lonely, 'app.ini')).href;
      const admin = new QuotaApiClient({ baseUrl: server.baseUrl, token: DEMO_TOKENS.root });
      // What the extension does for a signed-in site admin: fetch the names, send them to the server.
      const refresh = async () => {
        const names = (await admin.listGroups()).map((g) => g.name!);
        const published = client.waitForDiagnostics(uri);
        await client.notify(LiveGroupsNotification, { server: server.baseUrl, groups: names });
        return (await published).diagnostics;
      };
      await client.open(uri, '[quota]\nENABLED = true\nDEFAULT_GROUPS = free, enterprise\n', 'ini');
      const before = await refresh();
      assert.deepEqual(codes(before), ['3:unknown-default-group']);
      assert.match(String(before[0].message), /No group "enterprise" in the server http:\/\/127\.0\.0\.1:\d+\/api\/v1/);

      await admin.createGroup({ name: 'enterprise' });
      const after = await refresh();
      assert.deepEqual(codes(after), []);

      // Signing out (null) returns to "could not check" rather than to errors.
      const published = client.waitForDiagnostics(uri);
      await client.notify(LiveGroupsNotification, null);
      assert.deepEqual(codes((await published).diagnostics), []);
      await client.close(uri);
    });
  });
});
