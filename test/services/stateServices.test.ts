/** State services called in-process: the cursor is the `|` in each document. */
import { strict as assert } from 'node:assert';
import type { CompletionItem, CompletionList, Hover } from 'vscode-languageserver-types';
import { stateCodeActions } from '../../shared/state/services/codeActions';
import { stateCompletion } from '../../shared/state/services/completion';
import { stateHover } from '../../shared/state/services/hover';
import { stateRename } from '../../shared/state/services/navigation';
import { applyEdits, cursor, stateDocument } from '../helpers/services';

const STACK = 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev';
const BUCKET = 'urn:pulumi:dev::shop::aws:s3/bucket:Bucket::assets';

function deployment(resources: string): string {
  return `{"version": 3, "deployment": {"manifest": {"time": "t", "magic": "", "version": ""}, "resources": [\n${resources}\n]}}`;
}

const stack = `{"urn": "${STACK}", "custom": false, "type": "pulumi:pulumi:Stack"}`;

function hoverAt(marked: string): string {
  const { text, offset } = cursor(marked);
  const hover = stateHover(stateDocument(text), offset) as Hover | null;
  assert.ok(hover, 'a hover');
  return (hover.contents as { value: string }).value;
}

function completionAt(marked: string): string[] {
  const { text, offset } = cursor(marked);
  const result = stateCompletion(stateDocument(text), offset) as CompletionList | CompletionItem[] | null;
  return (Array.isArray(result) ? result : (result?.items ?? [])).map((item) => item.label);
}

describe('state services', () => {
  it('hover on a parent urn names the resource, its type and how many records depend on it', () => {
    const value = hoverAt(deployment(`${stack},\n{"urn": "${BUCKET}", "custom": true, "id": "b-1", "type": "aws:s3/bucket:Bucket", "parent": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop|-dev"}`));
    assert.match(value, /\*\*shop-dev\*\*/);
    assert.match(value, /- type: `pulumi:pulumi:Stack`/);
    assert.match(value, /- dependents: 1/);
  });

  it('hover on a protected copy pending deletion says both', () => {
    const value = hoverAt(deployment(`${stack},\n{"urn": "${BUCKET.replace('assets', 'ass|ets')}", "custom": true, "id": "b-1", "type": "aws:s3/bucket:Bucket", "protect": true, "delete": true}`));
    assert.match(value, /- protect: true\n- delete: true \(pending deletion\)/);
  });

  it('hover on a urn that is not in the file says so', () => {
    assert.match(
      hoverAt(deployment(`${stack},\n{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "t:t:T", "dependencies": ["urn:pulumi:dev::shop::t:t:T::go|ne"]}`)),
      /Not defined in this file\./,
    );
  });

  it('completes a dependency with the other urns of the file, not the record’s own', () => {
    const labels = completionAt(deployment(`${stack},\n{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "aws:s3/bucket:Bucket", "dependencies": [|]}`));
    assert.deepEqual(labels, [STACK]);
  });

  it('completes a provider reference as urn::id', () => {
    const provider = 'urn:pulumi:dev::shop::pulumi:providers:aws::default';
    const labels = completionAt(
      deployment(
        `{"urn": "${provider}", "custom": true, "id": "p-1", "type": "pulumi:providers:aws"},\n{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "aws:s3/bucket:Bucket", "provider": "|"}`,
      ),
    );
    assert.deepEqual(labels, [`${provider}::p-1`]);
  });

  it('offers nothing in a property name', () => {
    assert.deepEqual(completionAt(deployment(`{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "t", "dep|": []}`)), []);
  });

  it('renames a urn at its definition and every reference', () => {
    const { text, offset } = cursor(deployment(`${stack},\n{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "t:t:T", "parent": "${STACK.replace('Stack::', 'Stack::|')}"}`));
    const renamed = applyEdits(text, stateRename(stateDocument(text), offset, 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-prod')!);
    assert.equal(renamed.split('shop-prod').length - 1, 2);
    assert.ok(!renamed.includes('shop-dev'));
  });

  it('lists one reorder for every forward reference (the same fix by id), and one removal per missing reference', () => {
    const topic = 'urn:pulumi:dev::shop::x:y:Topic::events';
    const text = deployment(
      `${stack},\n{"urn": "${BUCKET}", "custom": true, "id": "b", "type": "t:t:T", "dependencies": ["${topic}", "urn:pulumi:dev::shop::x:y:Gone::old"]},\n{"urn": "urn:pulumi:dev::shop::x:y:Q::q", "custom": true, "id": "q", "type": "t:t:T", "dependencies": ["${topic}"]},\n{"urn": "${topic}", "custom": true, "id": "t", "type": "x:y:Topic"}`,
    );
    const { analysis, snapshot } = stateDocument(text);
    assert.deepEqual(
      analysis.diagnostics.map((d) => d.code),
      ['forward-reference', 'missing-reference', 'forward-reference'],
    );
    const titles = stateCodeActions(snapshot, analysis.diagnostics).map(({ fix }) => fix.title);
    assert.deepEqual(titles, ['Reorder resources into dependency order', 'Remove the reference to urn:pulumi:dev::shop::x:y:Gone::old']);
  });
});
