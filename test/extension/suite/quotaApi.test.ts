import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { QuotaGroup, QuotaRuleInfo } from '../../../shared/api/types';
import { activeExtension, apiGet, connectToQuotaApi, disconnectFromQuotaApi, revertAndCloseAll, waitFor, workspaceUri, type QuotaApiServer } from './helpers';

const ROOT_TOKEN = 'demo-root-token';
const ALICE_TOKEN = 'demo-alice-token';
const BOB_TOKEN = 'demo-bob-token';
const CAROL_TOKEN = 'demo-carol-token';

describe('quota API commands against the real reference server', function () {
  let server: QuotaApiServer;

  before(async function () {
    server = await connectToQuotaApi();
  });

  after(() => disconnectFromQuotaApi(server));

  afterEach(revertAndCloseAll);

  async function lastMessage(level?: 'info' | 'warning' | 'error'): Promise<string> {
    const { hooks } = await activeExtension();
    const shown = hooks.shownMessages().filter((m) => level === undefined || m.level === level);
    assert.ok(shown.length > 0, `no ${level ?? ''} message was shown`);
    return shown[shown.length - 1].text;
  }

  async function signIn(token: string): Promise<string | undefined> {
    return vscode.commands.executeCommand<string | undefined>('quotaState.signIn', { token });
  }

  it('signs in with a token kept in SecretStorage, and says who is signed in', async () => {
    const account = await signIn(ROOT_TOKEN);
    assert.equal(account, 'root');
    assert.match(await lastMessage('info'), new RegExp(`Signed in to ${escape(server.baseUrl)} as root \\(site administrator\\)`));
    // The stored token is what later commands use: listing rules works without passing it again.
    const rules = await vscode.commands.executeCommand<QuotaRuleInfo[]>('quotaState.listRules', {});
    assert.ok(Array.isArray(rules) && rules.some((rule) => rule.name === 'repos-100m'));
    // Never in settings.
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('quotaState')).includes(ROOT_TOKEN));
  });

  it('rejects a token the server does not accept, and stores nothing', async () => {
    const account = await signIn('not-a-real-token');
    assert.equal(account, undefined);
    assert.match(await lastMessage('error'), /not signed in to .*token is no longer valid/);
    // The previous (valid) token is still the one in use.
    const rules = await vscode.commands.executeCommand<QuotaRuleInfo[]>('quotaState.listRules', {});
    assert.ok(Array.isArray(rules));
  });

  it("sends the signed-in user's live usage to the language server and shows it in the view", async () => {
    const { hooks } = await activeExtension();
    const live = await waitFor('live usage', () => hooks.liveUsage() ?? undefined, []);
    assert.equal(live.account, 'root');
    assert.equal(live.server, server.baseUrl);
    const sections = await hooks.treeChildren();
    const labels = sections.map((node) => (node.kind === 'section' ? node.label : node.kind));
    assert.ok(labels.includes('My usage'), labels.join(', '));
    assert.ok(
      labels.some((label) => label.startsWith('Rules (')),
      labels.join(', '),
    );
    assert.ok(
      labels.some((label) => label.startsWith('Groups (')),
      labels.join(', '),
    );
  });

  it('creates, edits and deletes a rule on the server', async () => {
    const created = await vscode.commands.executeCommand<QuotaRuleInfo>('quotaState.createRule', {
      name: 'ext-rule',
      limit: '1 GiB',
      subjects: ['size:repos:all', 'size:git:lfs'],
    });
    assert.deepEqual(created, { name: 'ext-rule', limit: 1073741824, subjects: ['size:repos:all', 'size:git:lfs'] });
    assert.deepEqual((await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/rules/ext-rule')).body, created);

    await vscode.commands.executeCommand('quotaState.editRule', { name: 'ext-rule', limit: '2 GiB', subjects: ['size:all'] });
    assert.deepEqual((await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/rules/ext-rule')).body, {
      name: 'ext-rule',
      limit: 2147483648,
      subjects: ['size:all'],
    });

    assert.equal(await vscode.commands.executeCommand('quotaState.deleteRule', { name: 'ext-rule', confirm: true }), true);
    assert.equal((await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/rules/ext-rule')).status, 404);
  });

  it("shows 409 (duplicate) and 422 (unknown subject) with the server's message", async () => {
    const duplicate = await vscode.commands.executeCommand('quotaState.createRule', { name: 'repos-100m', limit: 5, subjects: ['size:all'] });
    assert.equal(duplicate, undefined);
    const conflict = await lastMessage('error');
    assert.match(conflict, /^Could not create the rule "repos-100m": it conflicts with what already exists on /);
    assert.match(conflict, /rule already exists: \[name: repos-100m\]/);

    const invalid = await vscode.commands.executeCommand('quotaState.createRule', { name: 'typo-rule', limit: 5, subjects: ['size:bogus'] });
    assert.equal(invalid, undefined);
    assert.match(await lastMessage('error'), /rejected the request as invalid: unrecognized quota limit subject: \[subject: size:bogus\]/);
    assert.equal((await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/rules/typo-rule')).status, 404);
  });

  it("manages groups: create with rules, add/remove a rule, add/remove a user, set a user's groups, delete", async () => {
    const group = await vscode.commands.executeCommand<QuotaGroup>('quotaState.createGroup', { name: 'ext-group', rules: ['lfs-50m'] });
    assert.deepEqual(
      group?.rules.map((r) => r.name),
      ['lfs-50m'],
    );
    assert.equal(await vscode.commands.executeCommand('quotaState.addRuleToGroup', { group: 'ext-group', rule: 'assets-10m' }), true);
    assert.equal(await vscode.commands.executeCommand('quotaState.removeRuleFromGroup', { group: 'ext-group', rule: 'lfs-50m' }), true);
    const afterRules = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/groups/ext-group')).body as QuotaGroup;
    assert.deepEqual(
      afterRules.rules.map((r) => r.name),
      ['assets-10m'],
    );

    assert.equal(await vscode.commands.executeCommand('quotaState.addUserToGroup', { group: 'ext-group', user: 'bob' }), true);
    let members = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/groups/ext-group/users')).body as Array<{ login: string }>;
    assert.deepEqual(
      members.map((m) => m.login),
      ['bob'],
    );
    assert.equal(await vscode.commands.executeCommand('quotaState.removeUserFromGroup', { group: 'ext-group', user: 'bob' }), true);
    members = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/groups/ext-group/users')).body as Array<{ login: string }>;
    assert.deepEqual(members, []);

    assert.equal(await vscode.commands.executeCommand('quotaState.setUserGroups', { user: 'bob', groups: ['ext-group', 'pro'] }), true);
    const bob = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/users/bob/quota')).body as { groups: QuotaGroup[] };
    assert.deepEqual(bob.groups.map((g) => g.name).sort(), ['ext-group', 'pro']);
    assert.equal(await vscode.commands.executeCommand('quotaState.setUserGroups', { user: 'bob', groups: [] }), true);

    assert.equal(await vscode.commands.executeCommand('quotaState.deleteGroup', { group: 'ext-group', confirm: true }), true);
    assert.equal((await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/groups/ext-group')).status, 404);
  });

  it('pushes a quota file: plan, apply, per-item report, and the server then matches the file', async () => {
    const uri = workspaceUri('push.quota.jsonc');
    const result = await vscode.commands.executeCommand<{ plan: string[]; results: Array<{ step: string; ok: boolean; message?: string }> }>('quotaState.pushQuotaFile', {
      uri: uri.toString(),
      confirm: true,
    });
    assert.ok(result, 'no push result');
    assert.ok(result.plan.includes('create rule "team-2g": 2 GiB on size:all'), result.plan.join('\n'));
    assert.ok(
      result.plan.some((line) => line.startsWith('update rule "repos-100m": limit 100 MiB → 200 MiB')),
      result.plan.join('\n'),
    );
    assert.ok(result.plan.includes('delete group "pro" (not in the file)'), result.plan.join('\n'));
    assert.deepEqual(
      result.results.filter((r) => !r.ok),
      [],
    );
    assert.equal(result.results.length, result.plan.length);

    const rules = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/rules')).body as QuotaRuleInfo[];
    assert.deepEqual(rules.map((r) => r.name).sort(), ['assets-10m', 'lfs-50m', 'org-assets-20m', 'org-git-1g', 'repos-100m', 'team-2g']);
    const groups = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/quota/groups')).body as QuotaGroup[];
    assert.deepEqual(
      groups
        .map(
          (g) =>
            `${g.name}:${g.rules
              .map((r) => r.name)
              .sort()
              .join('+')}`,
        )
        .sort(),
      ['free:lfs-50m+repos-100m', 'org:org-assets-20m+org-git-1g', 'team:team-2g'],
    );
    const carol = (await apiGet(server.baseUrl, ROOT_TOKEN, '/admin/users/carol/quota')).body as { groups: QuotaGroup[] };
    assert.deepEqual(
      carol.groups.map((g) => g.name),
      ['team'],
    );

    // A second push has nothing left to do.
    const again = await vscode.commands.executeCommand<{ plan: string[] }>('quotaState.pushQuotaFile', { uri: uri.toString(), confirm: true });
    assert.deepEqual(again?.plan, []);
  });

  it("pulls the server's rules and groups into a quota file, keeping its comments", async () => {
    const uri = workspaceUri('team.quota.jsonc');
    const text = await vscode.commands.executeCommand<string>('quotaState.pullServerRules', { uri: uri.toString() });
    assert.ok(text, 'nothing pulled');
    const document = await vscode.workspace.openTextDocument(uri);
    assert.equal(document.getText(), text);
    assert.match(text, /\/\/ Fixture for the extension-host tests/);
    assert.match(text, /"name": "team-2g",\s*"limit": "2 GiB"/);
    assert.match(text, /"usage": \{/);
  });

  it('answers Check Quota for Subject in words', async () => {
    // After the push, carol is in "team" (2 GiB on size:all) with 800 MiB of git and 2 GiB of LFS.
    await signIn(CAROL_TOKEN);
    const over = await vscode.commands.executeCommand<{ withinQuota: boolean; message: string }>('quotaState.checkQuota', { subject: 'size:repos:all' });
    assert.equal(over?.withinQuota, false);
    assert.match(over!.message, /^You are over quota for size:repos:all on /);
    // Forgejo asks the rules covering the wiki too: from 13.0 it walks up to size:all, which carol is over.
    const wiki = await vscode.commands.executeCommand<{ withinQuota: boolean; message: string }>('quotaState.checkQuota', { subject: 'size:assets:wiki' });
    assert.equal(wiki?.withinQuota, false);
    assert.match(wiki!.message, /^You are over quota for size:assets:wiki on /);
    await signIn(ALICE_TOKEN);
    const within = await vscode.commands.executeCommand<{ withinQuota: boolean; message: string }>('quotaState.checkQuota', { subject: 'size:repos:public' });
    assert.equal(within?.withinQuota, true);
    assert.match(within!.message, /^You are within quota for size:repos:public on /);
  });

  it('shows my quota as readable usage per subject, and lists usage pages', async () => {
    await signIn(ALICE_TOKEN);
    const shown = await vscode.commands.executeCommand<{ text: string }>('quotaState.showMyQuota', { show: false });
    assert.ok(shown, 'no quota report');
    assert.match(shown.text, /# Quota of alice on /);
    assert.match(shown.text, /\| `size:repos:public` \| 12 MiB \|/);
    const attachments = await vscode.commands.executeCommand<{ items: Array<{ name: string }>; total: number; hasMore: boolean }>('quotaState.listAttachments', { page: 1, limit: 1 });
    assert.ok(attachments, 'no attachment page');
    assert.deepEqual(
      attachments.items.map((a) => a.name),
      ['diagram.svg'],
    );
    assert.equal(attachments.hasMore, false);
  });

  it('explains a 403 from an admin endpoint: "your account is not a site administrator on <server>"', async () => {
    await signIn(ALICE_TOKEN);
    const rules = await vscode.commands.executeCommand('quotaState.listRules', {});
    assert.equal(rules, undefined);
    assert.equal(await lastMessage('error'), `Could not list the quota rules: your account is not a site administrator on ${server.baseUrl} (the server said: user should be the site admin).`);
    const { hooks } = await activeExtension();
    const labels = (await hooks.treeChildren()).map((node) => (node.kind === 'section' ? node.label : node.kind));
    assert.deepEqual(labels, ['My usage', 'repositories'], 'a non-admin sees only their usage and repositories, no admin sections');
  });

  it('after Sign Out the token is gone, and no log ever contained a token', async () => {
    assert.equal(await vscode.commands.executeCommand('quotaState.signOut'), true);
    const rules = await vscode.commands.executeCommand('quotaState.listRules', {});
    assert.equal(rules, undefined);
    assert.match(await lastMessage('error'), /^You are not signed in to /);

    const { hooks } = await activeExtension();
    const logsRoot = path.dirname(path.dirname(hooks.logUri.fsPath));
    const logText = readTree(logsRoot);
    assert.match(logText, /Signed in to .* as root/, 'the extension log was not found where expected');
    for (const token of [ROOT_TOKEN, ALICE_TOKEN, BOB_TOKEN, CAROL_TOKEN]) assert.ok(!logText.includes(token), `a log contains ${token}`);
  });
});

function readTree(folder: string): string {
  let text = '';
  for (const name of readdirSync(folder)) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) text += readTree(full);
    else text += readFileSync(full, 'utf8');
  }
  return text;
}

function escape(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
