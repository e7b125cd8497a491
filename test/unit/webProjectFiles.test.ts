/** The browser server's `.quota-state.json` candidates: every folder above a document, on any scheme. */
import assert from 'node:assert/strict';
import { configCandidates } from '../../server/web/projectFiles';

describe('browser server: where .quota-state.json is looked for', () => {
  it("walks from the document's folder up to the root of its file system, keeping scheme and authority", () => {
    assert.deepEqual(configCandidates('vscode-vfs://github/owner/repo/infra/stack.state.json'), [
      'vscode-vfs://github/owner/repo/infra/.quota-state.json',
      'vscode-vfs://github/owner/repo/.quota-state.json',
      'vscode-vfs://github/owner/.quota-state.json',
      'vscode-vfs://github/.quota-state.json',
    ]);
    assert.deepEqual(configCandidates('memfs:/a/b.json'), ['memfs:/a/.quota-state.json', 'memfs:/.quota-state.json']);
  });

  it('has nothing to look for in untitled documents', () => {
    assert.deepEqual(configCandidates('untitled:Untitled-1'), []);
  });
});
