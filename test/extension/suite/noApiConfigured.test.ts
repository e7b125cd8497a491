import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeExtension, setSetting } from './helpers';

describe('with no quota API configured', () => {
  before(async () => {
    await activeExtension();
    await setSetting('api.baseUrl', undefined);
  });

  it('the Quota view stays empty, so VS Code shows its welcome content, and nothing pops up', async () => {
    const { hooks } = await activeExtension();
    const shownBefore = hooks.shownMessages().length;
    // Showing and refreshing the view makes VS Code ask the tree for its items, as a user opening it does.
    await vscode.commands.executeCommand('quotaState.quota.focus');
    await vscode.commands.executeCommand('quotaState.refreshView');
    assert.deepEqual(await hooks.treeChildren(), []);
    assert.deepEqual(hooks.shownMessages().slice(shownBefore), []);
  });

  it('the welcome content for this case offers to configure the server', async () => {
    const { extension } = await activeExtension();
    const welcome = (extension.packageJSON.contributes.viewsWelcome as Array<{ view: string; contents: string; when?: string }>).find(
      (entry) => entry.view === 'quotaState.quota' && entry.when === '!quotaState.apiConfigured',
    );
    assert.ok(welcome, 'a welcome entry for "not configured"');
    assert.match(welcome.contents, /command:workbench\.action\.openSettings\?.*quotaState\.api\.baseUrl/);
  });

  for (const [command, args] of [
    ['quotaState.listRules', {}],
    ['quotaState.createRule', { name: 'no-server', limit: 1024, subjects: ['size:all'] }],
    ['quotaState.showMyQuota', {}],
  ] as const) {
    it(`${command} says how to configure the API, in one message with a button that opens the setting`, async () => {
      const { hooks } = await activeExtension();
      const shownBefore = hooks.shownMessages().length;
      assert.equal(await vscode.commands.executeCommand(command, args), undefined);
      const shown = hooks.shownMessages().slice(shownBefore);
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0].text, /No quota API is configured\. Set quotaState\.api\.baseUrl/);
      assert.deepEqual(shown[0].actions, ['Open Setting']);
    });
  }
});
