/** DIY backend paths (shared/backend/paths.ts): where a stack file's locks are, as the CLI's lockFolder finds them. */
import { strict as assert } from 'node:assert';
import { lockFolder } from '../../cli/stateFiles';
import { lockFolderOf, stackFileOf } from '../../shared/backend/paths';

describe('DIY backend lock folders', () => {
  const cases: Array<[string, string | undefined]> = [
    ['/b/.pulumi/stacks/shop/dev.json', '/b/.pulumi/locks/organization/shop/dev'],
    ['/b/.pulumi/stacks/shop/dev.json.gz', '/b/.pulumi/locks/organization/shop/dev'],
    ['/b/.pulumi/stacks/shop/dev.json.zst', '/b/.pulumi/locks/organization/shop/dev'],
    ['/b/.pulumi/stacks/dev.json', '/b/.pulumi/locks/dev'],
    ['/b/stacks/shop/dev.json', undefined],
    ['/b/.pulumi/stacks/a/b/dev.json', undefined],
    ['/b/.pulumi/meta.yaml', undefined],
  ];
  for (const [path, expected] of cases) {
    it(`${path} → ${expected ?? 'none'}, as the CLI finds it`, () => {
      assert.equal(lockFolderOf(path), expected);
      if (path.endsWith('.json') || path.endsWith('.gz') || path.endsWith('.zst')) assert.equal(lockFolder(path), expected);
    });
  }
});

describe('DIY backend stack files', () => {
  it('names the backend root and the stack of a stack file, in both layouts and every compression', () => {
    assert.deepEqual(stackFileOf('/srv/b/.pulumi/stacks/shop/dev.json.gz'), { root: '/srv/b', project: 'shop', name: 'dev', ref: 'organization/shop/dev' });
    assert.deepEqual(stackFileOf('/srv/b/.pulumi/stacks/dev.json'), { root: '/srv/b', name: 'dev', ref: 'dev' });
    assert.deepEqual(stackFileOf('/prefix/.pulumi/stacks/shop/dev.json.zst')?.root, '/prefix');
    // A bucket without a prefix, and a backend at the file system's root.
    assert.deepEqual(stackFileOf('/.pulumi/stacks/shop/dev.json'), { root: '', project: 'shop', name: 'dev', ref: 'organization/shop/dev' });
  });

  it('is no stack file elsewhere: history, backups, deeper folders, other names', () => {
    for (const path of ['/b/.pulumi/history/shop/dev/dev-1.history.json', '/b/.pulumi/stacks/a/b/dev.json', '/b/.pulumi/stacks/shop/dev.json.bak', '/b/stacks/shop/dev.json', '/b/.pulumi/stacks/shop'])
      assert.equal(stackFileOf(path), undefined, path);
  });
});
