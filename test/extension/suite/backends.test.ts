/**
 * The Pulumi Backends view in Node's extension host, on the installed extension (the browser's runs
 * the same scenario in test/extension/webSuite).
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { activeExtension, workspaceUri } from '../common';
import { backendsScenario } from '../backendsScenario';
import { revertAndCloseAll } from './helpers';

describe('the Pulumi Backends view', () => {
  afterEach(revertAndCloseAll);

  it('lists a real backend, opens a gzip checkpoint read-only, and compares versions', async () => {
    await backendsScenario();
  });

  it("finds the backend a workspace project's Pulumi.yaml names, read as the CLI reads it", async () => {
    const { hooks } = await activeExtension();
    const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const shown = async () => (await hooks.backends.discovery.roots()).map((uri) => uri.toString());
    // Two levels down: the view's own look (a workspace folder and its children) does not reach them.
    const named = workspaceUri('far/named');
    const other = workspaceUri('far/other');
    try {
      for (const folder of [named, other]) await write(vscode.Uri.joinPath(folder, '.pulumi', 'meta.yaml'), 'version: 1\n');
      assert.ok(!(await shown()).includes(named.toString()), 'not found without a project naming it');
      // A flow mapping with a comment, as Pulumi reads it; a project that is not YAML names nothing (Pulumi refuses it).
      await write(workspaceUri('proj/Pulumi.yaml'), "name: proj\nruntime: nodejs\nbackend: { url: 'file://../far/named' } # the team's\n");
      await write(workspaceUri('broken/Pulumi.yaml'), 'name: [broken\nbackend:\n  url: file://../far/other\n');
      const roots = await shown();
      assert.ok(roots.includes(named.toString()), `the named backend is listed: ${roots.join(', ')}`);
      assert.ok(!roots.includes(other.toString()), 'an invalid Pulumi.yaml names no backend');
    } finally {
      for (const name of ['far', 'proj', 'broken']) await vscode.workspace.fs.delete(workspaceUri(name), { recursive: true, useTrash: false });
    }
  });
});
