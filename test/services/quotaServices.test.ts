/** Quota services called in-process: the cursor is the `|` in each document. */
import { strict as assert } from 'node:assert';
import { quotaCompletion } from '../../shared/quota/services/completion';
import { quotaHover } from '../../shared/quota/services/hover';
import { rename } from '../../shared/quota/services/navigation';
import { applyEdits, cursor, quotaDocument } from '../helpers/services';

function hoverAt(marked: string): string {
  const { text, offset } = cursor(marked);
  const hover = quotaHover(quotaDocument(text), offset, []);
  assert.ok(hover, 'a hover');
  return (hover.contents as { value: string }).value;
}

function completionAt(marked: string): string[] {
  const { text, offset } = cursor(marked);
  return quotaCompletion(quotaDocument(text), offset).map((item) => item.label);
}

describe('quota services', () => {
  it('hover on a size gives it in bytes and in words', () => {
    assert.match(hoverAt('{"rules": [{"name": "r", "limit": "1 G|iB", "subjects": ["size:all"]}]}'), /1 GiB/);
  });

  it('hover on a subject explains it and names its ancestors', () => {
    const value = hoverAt('{"rules": [{"name": "r", "limit": 1, "subjects": ["size:repos:pub|lic"]}]}');
    assert.match(value, /size:repos:all/);
  });

  it('completes subjects inside a rule’s subjects', () => {
    const labels = completionAt('{"rules": [{"name": "r", "limit": 1, "subjects": ["|"]}]}');
    assert.ok(labels.includes('size:all') && labels.includes('size:repos:public'), labels.join(', '));
  });

  it('completes the rules defined in the file inside a group', () => {
    const labels = completionAt('{"rules": [{"name": "repos", "limit": 1, "subjects": ["size:all"]}], "groups": [{"name": "g", "rules": ["|"]}]}');
    assert.deepEqual(labels, ['repos']);
  });

  it('renames a rule at its definition and where groups use it', () => {
    const { text, offset } = cursor('{"rules": [{"name": "re|pos", "limit": 1, "subjects": ["size:all"]}], "groups": [{"name": "g", "rules": ["repos"]}]}');
    const renamed = applyEdits(text, rename(quotaDocument(text), offset, 'git')!);
    assert.equal(renamed, '{"rules": [{"name": "git", "limit": 1, "subjects": ["size:all"]}], "groups": [{"name": "g", "rules": ["git"]}]}');
  });
});
