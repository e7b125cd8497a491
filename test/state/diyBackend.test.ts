/** DIY backend paths (shared/state/surgery/diyBackend.ts): where a stack file's locks are, as the CLI's lockFolder finds them. */
import { strict as assert } from 'node:assert';
import { lockFolder } from '../../cli/stateFiles';
import { lockFolderOf } from '../../shared/state/surgery/diyBackend';

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
