/**
 * "Largest repositories" in the Quota view and the palette, against the real reference server
 * seeded with one user who owns twelve repositories (more than a page) and another user's
 * larger one that must never show.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Page } from '../../../shared/api/client';
import type { Repository } from '../../../shared/api/types';
import type { QuotaNode } from '../../../client/quotaTree';
import { LargestRepositories, type RepositoryNode } from '../../../client/repositories';
import { activeExtension, apiGet, connectToQuotaApi, disconnectFromQuotaApi, revertAndCloseAll, type QuotaApiServer } from './helpers';

const DANA_TOKEN = 'dana-repositories-token';
const MiB = 1024 * 1024;
/** dana/r01 … dana/r12, sizes that are not in name order; every fourth is private. */
const DANA_REPOS = Array.from({ length: 12 }, (_, index) => {
  const n = index + 1;
  return { owner: 'dana', name: `r${String(n).padStart(2, '0')}`, private: n % 4 === 0, gitSize: (((n * 7) % 13) + 1) * MiB, lfsSize: n * 1024 };
});

describe('Largest repositories (view and palette) against the real reference server', function () {
  let server: QuotaApiServer;
  let dir: string;
  /** What the server itself says, largest first: the order every view must show. */
  let expected: Repository[];

  before(async function () {
    await activeExtension();
    dir = mkdtempSync(path.join(os.tmpdir(), 'quota-repos-'));
    const seed = path.join(dir, 'repos.quota.json');
    writeFileSync(
      seed,
      JSON.stringify({
        accounts: [
          { name: 'dana', type: 'user', token: DANA_TOKEN },
          { name: 'erin', type: 'user', token: 'erin-repositories-token' },
        ],
        repos: [...DANA_REPOS, { owner: 'erin', name: 'huge', private: false, gitSize: 900 * MiB, lfsSize: 0 }],
      }),
    );
    server = await connectToQuotaApi(seed);
    assert.equal(await vscode.commands.executeCommand('quotaState.signIn', { token: DANA_TOKEN }), 'dana');
    const all = await apiGet(server.baseUrl, DANA_TOKEN, '/user/repos?order_by=reversesize&limit=50');
    expected = all.body as Repository[];
    assert.equal(expected.length, 12);
  });

  after(async () => {
    await disconnectFromQuotaApi(server);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  afterEach(revertAndCloseAll);

  it('the seed sizes give a largest-first order that is neither name nor id order', () => {
    const bytes = DANA_REPOS.map((repo) => ({ name: `dana/${repo.name}`, size: repo.gitSize + repo.lfsSize })).sort((a, b) => b.size - a.size);
    assert.deepEqual(
      expected.map((repo) => repo.full_name),
      bytes.map((repo) => repo.name),
    );
    assert.notDeepEqual(
      bytes.map((repo) => repo.name),
      [...bytes.map((repo) => repo.name)].sort(),
    );
  });

  it('the view has a "Largest repositories" section: a page largest first with sizes and links, then "Load more"', async () => {
    const { hooks } = await activeExtension();
    const roots = await hooks.treeChildren();
    const section = roots.find((node) => node.kind === 'repositories');
    assert.ok(section, `sections: ${roots.map((node) => node.kind).join(', ')}`);
    const firstPage = await hooks.treeChildren(section);
    const repositories = firstPage.filter((node): node is Extract<QuotaNode, { kind: 'repository' }> => node.kind === 'repository');
    assert.deepEqual(
      repositories.map((node) => node.repository.full_name),
      expected.slice(0, 10).map((repo) => repo.full_name),
    );
    assert.ok(!repositories.some((node) => node.repository.full_name === 'erin/huge'), "only the signed-in user's repositories");
    assert.equal(firstPage[firstPage.length - 1].kind, 'moreRepositories');

    // Each repository item shows its size (Forgejo's KiB, shown in bytes' units) and opens its page.
    const largest = repositories[0].repository;
    const opened = await vscode.commands.executeCommand<string>('quotaState.openRepository', largest.html_url);
    assert.equal(opened, `${new URL(server.baseUrl).origin}/${largest.full_name}`);
    assert.equal(await vscode.commands.executeCommand('quotaState.openRepository', repositories[1]), repositories[1].repository.html_url, "from the item's inline action");
    assert.equal(await vscode.commands.executeCommand('quotaState.openRepository', 'javascript:alert(1)'), undefined, 'only http(s) pages are opened');

    // "Load more" fetches the next page into the same section.
    const loaded = await vscode.commands.executeCommand<Repository[]>('quotaState.loadMoreRepositories', firstPage[firstPage.length - 1]);
    assert.deepEqual(
      loaded.map((repo) => repo.full_name),
      expected.map((repo) => repo.full_name),
    );
    const allPages = await hooks.treeChildren(section);
    assert.equal(allPages.length, 12, 'no "Load more" once everything is shown');
    assert.ok(allPages.every((node) => node.kind === 'repository'));
  });

  it('a repository item shows its human size (Forgejo reports KiB) and opens its page when clicked', async () => {
    const { hooks } = await activeExtension();
    const section = (await hooks.treeChildren()).find((node) => node.kind === 'repositories')!;
    const [first] = await hooks.treeChildren(section);
    assert.equal(first.kind, 'repository');
    // The view's own item builder; it needs no server for a node it is given.
    const view = new LargestRepositories(
      undefined as never,
      () => undefined,
      async () => true,
    );
    const item = view.treeItem(first as RepositoryNode);
    const repository = expected[0];
    assert.equal(item.label, repository.full_name);
    const shownMiB = Number(/^([\d.]+) MiB$/.exec(String(item.description))?.[1]);
    assert.ok(Math.abs(shownMiB - repository.size / 1024) < 0.1, `${item.description} for ${repository.size} KiB`);
    assert.deepEqual(item.command && { command: item.command.command, arguments: item.command.arguments }, {
      command: 'quotaState.openRepository',
      arguments: [repository.html_url],
    });
  });

  it('the palette command lists pages largest first, as many pages as the server has', async () => {
    const first = await vscode.commands.executeCommand<Page<Repository>>('quotaState.listLargestRepositories', { page: 1, limit: 5 });
    assert.deepEqual(
      first.items.map((repo) => repo.full_name),
      expected.slice(0, 5).map((repo) => repo.full_name),
    );
    assert.equal(first.total, 12);
    assert.equal(first.hasMore, true);
    const last = await vscode.commands.executeCommand<Page<Repository>>('quotaState.listLargestRepositories', { page: 3, limit: 5 });
    assert.deepEqual(
      last.items.map((repo) => repo.full_name),
      expected.slice(10).map((repo) => repo.full_name),
    );
    assert.equal(last.hasMore, false);
  });
});
