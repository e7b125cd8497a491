import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SHOWN_SUBJECTS, type DashboardModel } from '../../../client/dashboard/model';
import type { QuotaInfo, Repository } from '../../../shared/api/types';
import { explainAccount } from '../../../shared/quota/explain';
import { resolveForgejoProfile } from '../../../shared/quota/forgejoVersion';
import { leafUsageFromQuotaUsed } from '../../../shared/quota/quotaInfo';
import { usageBySubject } from '../../../shared/quota/usage';
import {
  activeExtension,
  apiGet,
  connectToQuotaApi,
  diagnosticsWith,
  disconnectFromQuotaApi,
  revertAndCloseAll,
  setSetting,
  startQuotaApi,
  waitFor,
  workspaceUri,
  type QuotaApiServer,
} from './helpers';

const ROOT_TOKEN = 'demo-root-token';
const ALICE_TOKEN = 'demo-alice-token';
const BOB_TOKEN = 'demo-bob-token';

/** The repositories section must be the API's largest-first answer: names, Forgejo's KiB as bytes, and pages. */
function assertRepositoriesMatchApi(model: DashboardModel, answer: Repository[], total: number): void {
  assert.ok(model.repositories, 'no repositories section');
  const shown = model.repositories.items.map((r) => [r.name, r.size, r.url]);
  assert.deepEqual(
    shown,
    answer.map((r) => [r.full_name, r.size * 1024, r.html_url]),
  );
  assert.equal(model.repositories.total, total);
}

/** The dashboard must show exactly what the API answered: bytes per subject, and each group's rule limits. */
function assertMatchesApi(model: DashboardModel, quota: QuotaInfo): void {
  const expected = usageBySubject(leafUsageFromQuotaUsed(quota.used));
  for (const row of model.subjects) assert.equal(row.used, expected[row.subject as keyof typeof expected], `${row.subject} in use`);
  assert.equal(model.subjects.length, Object.keys(expected).length - 1, 'every subject but none');
  const limits = (groups: Array<{ rules: Array<{ limit: number | bigint }> }>) => groups.map((g) => g.rules.map((r) => Number(r.limit)).sort((a, b) => a - b));
  assert.deepEqual(limits(model.groups).sort(), limits(quota.groups).sort());
}

describe('quota dashboard, status bar and walkthrough', function () {
  let server: QuotaApiServer;

  before(async function () {
    server = await connectToQuotaApi();
  });

  after(() => disconnectFromQuotaApi(server));

  afterEach(revertAndCloseAll);

  async function signIn(token: string): Promise<void> {
    await vscode.commands.executeCommand('quotaState.signIn', { token });
  }

  it('shows the signed-in account and its verdict in the status bar, and hides it after sign-out', async () => {
    const { hooks } = await activeExtension();
    await signIn(BOB_TOKEN);
    const bob = await waitFor('the status bar for bob', () => (hooks.statusBar().text.includes('bob') ? hooks.statusBar() : undefined), []);
    assert.equal(bob.visible, true);
    assert.match(bob.text, /bob ✗ size:repos:all$/);
    assert.equal(bob.command, 'quotaState.showDashboard');
    await signIn(ALICE_TOKEN);
    const alice = await waitFor('the status bar for alice', () => (hooks.statusBar().text.includes('alice') ? hooks.statusBar() : undefined), []);
    assert.match(alice.text, /alice ✓$/);
    await vscode.commands.executeCommand('quotaState.signOut');
    await waitFor('the status bar to hide', () => (hooks.statusBar().visible ? undefined : true), []);
  });

  it('tells one explanation of the signed-in account in the status bar, the Quota view, the dashboard and Check Quota', async () => {
    const { hooks } = await activeExtension();
    await signIn(BOB_TOKEN);
    // The explanation of what the API answers for bob, in the version the extension follows: the setting, else the server's.
    const quota = (await apiGet(server.baseUrl, BOB_TOKEN, '/user/quota')).body as QuotaInfo;
    const version = ((await apiGet(server.baseUrl, BOB_TOKEN, '/version')).body as { version: string }).version;
    const setting = vscode.workspace.getConfiguration('quotaState').get<string>('forgejoVersion');
    const { profile } = resolveForgejoProfile([
      { source: 'setting', version: setting },
      { source: 'server', version },
    ]);
    const explanation = explainAccount('bob', { quota }, { profile, subjects: SHOWN_SUBJECTS });
    assert.equal(explanation.within, false);

    const status = await waitFor('the status bar for bob', () => (hooks.statusBar().text.includes('bob') ? hooks.statusBar() : undefined), []);
    assert.equal(status.text, `$(account) bob ✗ ${explanation.failing!.rule.subjects.join(', ')}`);

    const sections = await hooks.treeChildren();
    const usage = sections.find((n) => n.kind === 'section' && n.label === 'My usage');
    assert.ok(usage && usage.kind === 'section');
    assert.deepEqual(
      usage.children.map((n) => (n.kind === 'usage' ? [n.subject, n.allowed, n.percent, n.explanation] : n.kind)),
      explanation.subjects.map((s) => [s.subject, s.allowed, s.percent, s.reason]),
    );

    const model = await vscode.commands.executeCommand<DashboardModel>('quotaState.showDashboard', { show: false });
    assert.ok(model, 'no dashboard model');
    assert.deepEqual(model.subjects, explanation.subjects);
    assert.deepEqual(model.groups, explanation.groups);

    for (const subject of explanation.subjects.filter((s) => ['size:repos:all', 'size:git:lfs', 'size:all'].includes(s.subject))) {
      const checked = await vscode.commands.executeCommand<{ withinQuota: boolean; message: string }>('quotaState.checkQuota', { subject: subject.subject });
      assert.equal(checked?.withinQuota, subject.allowed, subject.subject);
      assert.ok(checked!.message.includes(`(${subject.reason})`), checked!.message);
    }
    // Each answer is a notification: clear them, as a person would, so none is left over the later suites' views.
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('opens the dashboard for the signed-in account, with the figures the API gives for that account', async () => {
    const { hooks } = await activeExtension();
    await signIn(ALICE_TOKEN);
    const model = await vscode.commands.executeCommand<DashboardModel>('quotaState.showDashboard');
    assert.ok(model, 'no dashboard model');
    assert.equal(model.account, 'alice');
    assert.deepEqual(model.origin, { kind: 'self', server: server.baseUrl });
    assertMatchesApi(model, (await apiGet(server.baseUrl, ALICE_TOKEN, '/user/quota')).body as QuotaInfo);
    const repos = model.subjects.find((s) => s.subject === 'size:repos:public')!;
    assert.equal(repos.used, 12 * 2 ** 20);
    assert.equal(repos.headroom, 88 * 2 ** 20);
    assert.deepEqual(
      model.lists?.attachments.map((a) => a.name),
      ['diagram.svg'],
    );
    const aliceRepos = (await apiGet(server.baseUrl, ALICE_TOKEN, '/user/repos?order_by=reversesize&limit=10')).body as Repository[];
    assertRepositoriesMatchApi(model, aliceRepos, aliceRepos.length);
    const shown = hooks.dashboard();
    assert.equal(shown.visible, true);
    assert.match(shown.html, /<h1>Quota of alice<\/h1>/);
    assert.match(shown.html, /<h2>Largest repositories<\/h2>/);
    assert.match(shown.html, /no rule of group #1 covers size:all, so Forgejo refuses it/);
    // One panel, reused: opening again does not add a second one.
    const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview).length;
    const before = tabs();
    await vscode.commands.executeCommand('quotaState.showDashboard');
    assert.equal(tabs(), before);
    // Show My Quota opens the dashboard too, not an unsaved Markdown document.
    const untitled = vscode.workspace.textDocuments.filter((d) => d.isUntitled).length;
    await vscode.commands.executeCommand('quotaState.showMyQuota');
    assert.equal(vscode.workspace.textDocuments.filter((d) => d.isUntitled).length, untitled);
  });

  it('lists the largest repositories of the signed-in account as the API orders them, each opening its page on the server', async () => {
    const { hooks } = await activeExtension();
    // An account with more repositories than the dashboard lists, named so that name order is not size order.
    const folder = mkdtempSync(path.join(tmpdir(), 'quota-state-repos-'));
    const seed = path.join(folder, 'repos.quota.jsonc');
    const sizesMiB = [3, 40, 1, 250, 7, 90, 12, 0, 64, 5, 120, 30];
    writeFileSync(
      seed,
      JSON.stringify({
        enabled: true,
        rules: [{ name: 'repos-1g', limit: '1 GiB', subjects: ['size:repos:all'] }],
        groups: [{ name: 'free', rules: ['repos-1g'] }],
        defaultGroups: ['free'],
        accounts: [{ name: 'dana', type: 'user', token: 'seed-dana-token' }],
        repos: sizesMiB.map((mib, i) => ({ owner: 'dana', name: `repo-${String.fromCharCode(97 + i)}`, private: i % 2 === 0, gitSize: `${mib} MiB`, lfsSize: `${i} KiB` })),
      }),
    );
    const other = await startQuotaApi(seed);
    try {
      await setSetting('api.baseUrl', other.baseUrl);
      await signIn('seed-dana-token');
      const model = await vscode.commands.executeCommand<DashboardModel>('quotaState.showDashboard');
      assert.ok(model, 'no dashboard model');
      assert.equal(model.account, 'dana');
      const answer = (await apiGet(other.baseUrl, 'seed-dana-token', '/user/repos?order_by=reversesize&limit=10')).body as Repository[];
      assertRepositoriesMatchApi(model, answer, sizesMiB.length);
      const sizes = model.repositories!.items.map((r) => r.size);
      assert.deepEqual(
        sizes,
        [...sizes].sort((a, b) => b - a),
        'largest first',
      );
      assert.equal(model.repositories!.items[0].name, 'dana/repo-d');
      assert.equal(model.repositories!.items[0].size, 250 * 2 ** 20 + 3 * 1024);
      const html = hooks.dashboard().html;
      assert.match(html, /<caption>The 10 largest of 12<\/caption>/);
      assert.ok(html.includes(`data-url="${answer[0].html_url}"`), 'the largest repository links to its page');
      // The extension opens only what the dashboard listed, and only web addresses.
      assert.equal(await hooks.dashboardOpen('https://elsewhere.example/phish'), false);
      assert.equal(await hooks.dashboardOpen('command:workbench.action.closeAllEditors'), false);
    } finally {
      await setSetting('api.baseUrl', server.baseUrl);
      await other.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('opens the dashboard for another account as a site administrator, and refreshes after a rule change', async () => {
    const { hooks } = await activeExtension();
    await signIn(ROOT_TOKEN);
    const model = await vscode.commands.executeCommand<DashboardModel>('quotaState.showAccountDashboard', { account: 'bob' });
    assert.ok(model, 'no dashboard model');
    assert.equal(model.account, 'bob');
    assert.equal(model.origin.kind, 'admin');
    const quota = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/users/bob/quota')).body as QuotaInfo;
    assertMatchesApi(model, quota);
    assert.equal(model.within, false);
    assert.equal(model.groups[0].name, 'free');
    assert.deepEqual([model.groups[0].rules[0].name, model.groups[0].rules[0].stands], ['repos-100m', false], 'the failing rule comes first');
    assert.equal(model.lists, undefined, 'the API lists assets only for the signed-in user');

    // Raising the limit from the editor refreshes the open dashboard.
    await vscode.commands.executeCommand('quotaState.editRule', { name: 'repos-100m', limit: '1 GiB' });
    const refreshed = await waitFor('the dashboard to refresh', () => (hooks.dashboard().model?.within ? hooks.dashboard().model : undefined), []);
    assert.equal(refreshed.groups.find((g) => g.name === 'free')!.stands, true);
    await vscode.commands.executeCommand('quotaState.editRule', { name: 'repos-100m', limit: '100 MiB' });
  });

  it("opens the dashboard for an account of a quota file's preview", async () => {
    const uri = workspaceUri('dashboard.quota.jsonc');
    writeFileSync(
      uri.fsPath,
      '{ "defaultGroups": ["free"], "rules": [ { "name": "repos-1g", "limit": "1 GiB", "subjects": ["size:repos:all"] } ],\n' +
        '  "groups": [ { "name": "free", "rules": ["repos-1g"] } ], "usage": { "erin": { "size:repos:private": "2 GiB" } } }\n',
    );
    const model = await vscode.commands.executeCommand<DashboardModel>('quotaState.showDashboard', { uri: uri.toString(), account: 'erin' });
    assert.ok(model, 'no dashboard model');
    assert.deepEqual(model.origin, { kind: 'file', file: 'dashboard.quota.jsonc' });
    assert.equal(model.within, false);
    const row = model.subjects.find((s) => s.subject === 'size:repos:private')!;
    assert.equal(row.percent, 200);
    assert.equal(row.reason, 'rule repos-1g of group free fails (2 GiB of 1 GiB), so Forgejo refuses size:repos:private');
  });

  it("shows the signed-in account and server as the Quota view's description, with usage against the binding limit", async () => {
    const { hooks } = await activeExtension();
    await signIn(BOB_TOKEN);
    const sections = await hooks.treeChildren();
    const usage = sections.find((n) => n.kind === 'section' && n.label === 'My usage');
    assert.ok(usage && usage.kind === 'section');
    const repos = usage.children.find((n) => n.kind === 'usage' && n.subject === 'size:repos:private');
    assert.ok(repos && repos.kind === 'usage');
    assert.equal(repos.percent, 140);
    assert.equal(repos.allowed, false);
    assert.equal(hooks.treeDescription(), `bob · ${new URL(server.baseUrl).host}`);
  });

  it("runs the walkthrough's commands: example state file, a fix, example quota file, sign in, dashboard", async () => {
    const { extension, hooks } = await activeExtension();
    // The steps shown outside the browser (the browser's own sign-in step is `when: isWeb`), those with a command.
    const steps = (extension.packageJSON.contributes.walkthroughs[0].steps as Array<{ description: string; when?: string }>)
      .filter((s) => s.when !== 'isWeb')
      .map((s) => /\(command:([\w.]+)\)/.exec(s.description)?.[1])
      .filter((command) => command !== undefined);
    assert.deepEqual(steps, [
      'quotaState.walkthrough.openExampleState',
      'quotaState.walkthrough.showFix',
      'quotaState.walkthrough.openExampleQuota',
      'quotaState.state.remove',
      'quotaState.signIn',
      'quotaState.showDashboard',
    ]);

    const stateUri = await vscode.commands.executeCommand<vscode.Uri>('quotaState.walkthrough.openExampleState');
    await diagnosticsWith(stateUri, ['forward-reference']);
    const fixed = await vscode.commands.executeCommand<string>('quotaState.walkthrough.showFix');
    assert.ok(fixed, 'no problem with a fix was found');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('hideCodeActionWidget');

    const quotaUri = await vscode.commands.executeCommand<vscode.Uri>('quotaState.walkthrough.openExampleQuota');
    const status = await waitFor('the example quota file to be recognised', () => hooks.documentStatus(quotaUri.toString()), [hooks.onDocumentStatus]);
    assert.equal(status.kind, 'quota');
  });

  it('registers the quota schema for completion and documentation without a second diagnostic per problem', async () => {
    const { extension } = await activeExtension();
    assert.deepEqual(extension.packageJSON.contributes.jsonValidation, [{ fileMatch: ['*.quota.json', '*.quota.jsonc', 'quota.jsonc'], url: './schemas/quota-config.editor.schema.json' }]);
    const uri = workspaceUri('associated.quota.jsonc');
    writeFileSync(uri.fsPath, '{ "enabled": "yes", "rules": [ { "name": "r", "limit": 5, "subjects": ["size:bogus"] } ], "groups": [] }\n');
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    await diagnosticsWith(uri, ['unknown-subject']);
    // Keys with their documentation come from VS Code's JSON features, through the registered schema.
    const labelOf = (item: vscode.CompletionItem) => (typeof item.label === 'string' ? item.label : item.label.label);
    const defaultGroups = await waitFor(
      'a documented "defaultGroups" completion',
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', uri, document.positionAt(document.getText().lastIndexOf('}')));
        return list.items.find((item) => labelOf(item) === 'defaultGroups');
      },
      [],
      60_000,
    );
    const docs = typeof defaultGroups.documentation === 'string' ? defaultGroups.documentation : defaultGroups.documentation?.value;
    assert.match(docs ?? String(defaultGroups.detail), /DEFAULT_GROUPS/);
    // The problems are ours alone, once each: nothing from VS Code's JSON validation.
    assert.deepEqual(
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.source === 'json')
        .map((d) => d.message),
      [],
    );
  });

  it("gives quota files one symbol tree (VS Code's JSON outline), so the breadcrumb does not flip", async () => {
    const uri = workspaceUri('push.quota.jsonc');
    await vscode.window.showTextDocument(uri);
    const { hooks } = await activeExtension();
    await waitFor('the quota status', () => (hooks.documentStatus(uri.toString())?.kind === 'quota' ? true : undefined), [hooks.onDocumentStatus]);
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    const flat = (list: vscode.DocumentSymbol[]): vscode.DocumentSymbol[] => list.flatMap((s) => [s, ...flat(s.children ?? [])]);
    assert.ok(symbols.length > 0, 'no symbols at all');
    // Ours would carry details such as "100 MiB on size:repos:all".
    assert.deepEqual(
      flat(symbols)
        .filter((s) => / on (size:|nothing)/.test(s.detail ?? ''))
        .map((s) => s.name),
      [],
    );
    const names = symbols.map((s) => s.name);
    assert.equal(new Set(names).size, names.length, `one tree, no repeated top-level entries: ${names.join(', ')}`);
  });
});
