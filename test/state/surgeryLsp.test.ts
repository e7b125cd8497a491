/**
 * State surgery through the real built server (dist/server/server.js --stdio): the refactor code
 * actions on the resource under the cursor, the quick fix and hover per pending operation, the
 * "remove with dependents…" lens and the surgery requests. Every edit must carry a change
 * annotation that needs confirmation (VS Code's refactor preview), and applying it must give
 * exactly the text shared/state/surgery gives (the CLI's result).
 */
import { strict as assert } from 'node:assert';
import type { AnnotatedTextEdit, CodeAction, CodeLens, Command, Hover, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SURGERY_COMMANDS, SurgeryRequest, SurgeryResourcesRequest, type SurgeryParams, type SurgeryResourcesResult, type SurgeryResult } from '../../shared/protocol';
import { runSurgery } from '../../shared/state/services/surgery';
import { LspTestClient, positionAt } from '../lsp/client';
import { A, B, CHILD, COMP, PROV_REF, ROOT, sampleRecords, U, type Rec } from './surgery/sample';

const OLD = U('aws:s3:Bucket', 'old');

function records(): Rec[] {
  return [
    ...sampleRecords(),
    { urn: OLD, custom: true, id: 'o1', type: 'aws:s3:Bucket', parent: ROOT, provider: PROV_REF, protect: true },
    { urn: OLD, custom: true, id: 'o0', type: 'aws:s3:Bucket', parent: ROOT, provider: PROV_REF, delete: true },
  ];
}

function exportText(resources: Rec[], pending: Rec[] = []): string {
  const deployment: Rec = { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources };
  if (pending.length) deployment.pending_operations = pending;
  return `${JSON.stringify({ version: 3, deployment }, null, 4)}\n`;
}

const PENDING = [
  { resource: { urn: A, custom: true, id: 'a1', type: 'aws:s3:Bucket' }, type: 'updating' },
  { resource: { urn: U('aws:s3:Bucket', 'new'), custom: true, type: 'aws:s3:Bucket' }, type: 'creating' },
];

/** LSP edits applied by the library the server itself builds documents with. */
function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///edited', 'json', 1, text), edits);
}

/** Checks the edit's shape (one annotation, needing confirmation, on every edit) and applies it to each file. */
function applyAnnotated(edit: WorkspaceEdit, texts: Record<string, string>): { texts: Record<string, string>; description: string; label: string } {
  assert.ok(edit.documentChanges?.length, 'the edit comes as documentChanges');
  const annotations = edit.changeAnnotations ?? {};
  const ids = Object.keys(annotations);
  assert.equal(ids.length, 1, 'one change annotation');
  const annotation = annotations[ids[0]];
  assert.equal(annotation.needsConfirmation, true, 'the annotation needs confirmation: VS Code shows its refactor preview');
  const out = { ...texts };
  for (const change of edit.documentChanges as TextDocumentEdit[]) {
    assert.ok(change.edits.length > 0);
    for (const e of change.edits) assert.equal((e as AnnotatedTextEdit).annotationId, ids[0], 'every edit carries the annotation');
    assert.ok(change.textDocument.uri in out, `an edit to ${change.textDocument.uri}`);
    out[change.textDocument.uri] = applyEdits(out[change.textDocument.uri], change.edits as TextEdit[]);
  }
  return { texts: out, description: annotation.description ?? '', label: annotation.label };
}

const lineOf = (text: string, needle: string, nth = 0) => {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  assert.notEqual(at, -1, `${needle} in the text`);
  return positionAt(text, at + 1);
};

describe('state surgery in the editor (LSP over stdio)', function () {
  this.timeout(60_000);
  let client: LspTestClient;
  let n = 0;
  const resolveCapabilities = {
    textDocument: { codeAction: { resolveSupport: { properties: ['edit'] }, codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor', 'refactor.rewrite'] } } } },
  };

  before(async () => {
    client = await LspTestClient.start({ capabilities: resolveCapabilities });
  });
  afterEach(() => client.assertNoLoggedErrors());
  after(async () => client?.stop());

  async function open(text: string): Promise<string> {
    const uri = `file:///work/surgery/s${++n}.state.json`;
    await client.open(uri, text);
    return uri;
  }
  async function actionsAt(uri: string, position: { line: number; character: number }, only?: string[]): Promise<CodeAction[]> {
    return client.request<unknown, CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: position, end: position },
      context: { diagnostics: [], ...(only ? { only } : {}) },
    });
  }
  async function resolved(action: CodeAction): Promise<CodeAction> {
    assert.equal(action.edit, undefined, 'the edit is computed on resolve');
    assert.ok(action.data, 'the action carries what resolve needs');
    return client.request<CodeAction, CodeAction>('codeAction/resolve', action);
  }
  /** The action of `kind` at the record holding `needle`, resolved, applied; compared with the operation run directly. */
  async function check(text: string, needle: string, kind: string, call: Omit<SurgeryParams, 'uri'>, nth = 0) {
    const uri = await open(text);
    const actions = await actionsAt(uri, lineOf(text, needle, nth));
    const action = actions.find((a) => a.kind === kind);
    assert.ok(action, `a ${kind} action among ${actions.map((a) => `${a.kind}: ${a.title}`).join('; ')}`);
    const done = await resolved(action);
    const { texts, description } = applyAnnotated(done.edit!, { [uri]: text });
    const expected = runSurgery(text, { ...call }).source;
    assert.equal(expected.status, 'applied');
    assert.equal(texts[uri], expected.text, "the edit gives exactly the operation's text");
    return { uri, action: done, description, after: texts[uri], actions };
  }

  it('offers remove with dependents on a resource that has them, with the report in the preview', async () => {
    const { action, description, after } = await check(exportText(records()), `"urn": "${COMP}"`, 'refactor.rewrite.state.removeWithDependents', {
      operation: 'remove',
      targets: [COMP],
      targetDependents: true,
    });
    assert.match(action.title, /^Remove comp with its dependents/);
    assert.match(description, /dependents removed: child, a, b/);
    assert.ok(!after.includes(CHILD) && !after.includes(`"${B}"`));
  });

  it('offers a plain remove on a resource without dependents, and no plain remove on one with them', async () => {
    const text = exportText(records());
    await check(text, `"urn": "${B}"`, 'refactor.rewrite.state.remove', { operation: 'remove', targets: [B] });
    const uri = await open(text);
    const kinds = (await actionsAt(uri, lineOf(text, `"urn": "${A}"`))).map((a) => a.kind);
    assert.ok(!kinds.includes('refactor.rewrite.state.remove'));
    assert.ok(kinds.includes('refactor.rewrite.state.removeWithDependents'));
  });

  it('removes one copy of a urn by its position (URN#2, the record pending deletion)', async () => {
    const { action, after } = await check(exportText(records()), `"id": "o0"`, 'refactor.rewrite.state.remove', { operation: 'remove', targets: [`${OLD}#2`] });
    assert.match(action.title, /copy 2 of 2/);
    assert.ok(after.includes('"o1"') && !after.includes('"o0"'));
  });

  it('removes a protected resource only as a forced remove, saying so in the title', async () => {
    const { action } = await check(exportText(records()), `"id": "o1"`, 'refactor.rewrite.state.remove', { operation: 'remove', targets: [`${OLD}#1`], force: true });
    assert.match(action.title, /^Remove protected resource old/);
  });

  it('protects and unprotects, taints and untaints', async () => {
    const text = exportText(records());
    await check(text, `"urn": "${B}"`, 'refactor.rewrite.state.protect', { operation: 'protect', targets: [B] });
    await check(text, `"urn": "${B}"`, 'refactor.rewrite.state.taint', { operation: 'taint', targets: [B] });
    await check(text, `"id": "o1"`, 'refactor.rewrite.state.unprotect', { operation: 'unprotect', targets: [`${OLD}#1`] });
    const tainted = records();
    tainted[5].taint = true;
    await check(exportText(tainted), `"urn": "${B}"`, 'refactor.rewrite.state.untaint', { operation: 'untaint', targets: [B] });
    // A record pending deletion is never protected or tainted (Pulumi skips it).
    const uri = await open(text);
    const kinds = (await actionsAt(uri, lineOf(text, `"id": "o0"`))).map((a) => a.kind);
    assert.ok(!kinds.some((k) => /protect|taint/.test(k!)), kinds.join());
  });

  it('offers rename and move as commands the client completes, and the rename request renames children too', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const actions = await actionsAt(uri, lineOf(text, `"urn": "${COMP}"`));
    const rename = actions.find((a) => a.kind === 'refactor.rewrite.state.rename')!;
    assert.equal((rename.command as Command).command, SURGERY_COMMANDS.rename);
    assert.deepEqual(rename.command!.arguments, [{ uri, target: COMP }]);
    const move = actions.find((a) => a.kind === 'refactor.rewrite.state.move')!;
    assert.equal(move.command!.command, SURGERY_COMMANDS.move);

    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'rename', targets: [COMP], newName: 'widget' });
    assert.equal(result.status, 'applied');
    const { texts, label } = applyAnnotated(result.edit!, { [uri]: text });
    assert.equal(label, 'Rename comp to widget');
    assert.equal(texts[uri], runSurgery(text, { operation: 'rename', targets: [COMP], newName: 'widget' }).source.text);
    assert.ok(texts[uri].includes(U('my:Comp$aws:s3:Bucket', 'child')) && texts[uri].includes(U('my:Comp', 'widget')));
  });

  it('moves resources into another file in ONE WorkspaceEdit editing both files', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const destUri = 'file:///work/surgery/dest.state.json';
    const destText = `${JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources: [{ urn: U('pulumi:pulumi:Stack', 'p-t', 't'), custom: false, type: 'pulumi:pulumi:Stack' }] } }, null, 2)}\n`;
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'move', targets: [B], dest: { uri: destUri, text: destText } });
    assert.equal(result.status, 'applied', result.errors.join('\n'));
    assert.equal(result.edit!.documentChanges!.length, 2, 'both files in one edit');
    const { texts, description } = applyAnnotated(result.edit!, { [uri]: text, [destUri]: destText });
    const expected = runSurgery(text, { operation: 'move', targets: [B] }, destText);
    assert.equal(texts[uri], expected.source.text);
    assert.equal(texts[destUri], expected.dest!.text);
    assert.ok(texts[destUri].includes(U('aws:s3:Bucket', 'b', 't')));
    assert.match(description, /references cut: b → a/);
  });

  it('refuses with the report and no edit: a remove of a resource with dependents, without them', async () => {
    const uri = await open(exportText(records()));
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'remove', targets: [A] });
    assert.equal(result.status, 'refused');
    assert.equal(result.edit, undefined);
    assert.match(result.errors[0], /can't be safely deleted because the following resources depend on it/);
  });

  it('gives each pending operation a quick fix that clears just it, and a hover saying what Pulumi would do', async () => {
    const text = exportText(records(), PENDING);
    const uri = await open(text);
    const at = lineOf(text, '"type": "creating"');
    const actions = await actionsAt(uri, at);
    const fix = actions.find((a) => a.kind === 'quickfix');
    assert.ok(fix, actions.map((a) => a.title).join('; '));
    assert.equal(fix.title, "Clear pending operation 'creating' on new");
    const done = await resolved(fix);
    const { texts, description } = applyAnnotated(done.edit!, { [uri]: text });
    assert.equal(texts[uri], runSurgery(text, { operation: 'clear-pending', targets: [U('aws:s3:Bucket', 'new')] }).source.text);
    const after = JSON.parse(texts[uri]) as { deployment: { pending_operations: Rec[] } };
    assert.deepEqual(
      after.deployment.pending_operations.map((p) => p.type),
      ['updating'],
    );
    assert.match(description, /pending operations cleared: creating new/);

    const hover = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: at });
    const value = (hover.contents as { value: string }).value;
    assert.match(value, /Pending operation: creating/);
    assert.match(value, /`pulumi refresh` does not clear a pending create/);
    const updating = await client.request<unknown, Hover>('textDocument/hover', { textDocument: { uri }, position: lineOf(text, '"type": "updating"') });
    assert.match((updating.contents as { value: string }).value, /`pulumi refresh` clears it/);

    // On the resource itself, its pending operation is offered as a refactor too.
    const onRecord = await actionsAt(uri, lineOf(text, `"urn": "${A}"`));
    assert.ok(onRecord.some((a) => a.kind === 'refactor.rewrite.state.clearPending' && a.title === "Clear pending operation 'updating' on a"));
  });

  it('offers repair only when the file has an integrity error, and repairs it', async () => {
    const clean = exportText(records());
    const cleanUri = await open(clean);
    assert.ok(!(await actionsAt(cleanUri, lineOf(clean, `"urn": "${B}"`))).some((a) => a.kind === 'refactor.rewrite.state.repair'));
    const broken = records();
    [broken[4], broken[5]] = [broken[5], broken[4]];
    const text = exportText(broken);
    await check(text, `"urn": "${B}"`, 'refactor.rewrite.state.repair', { operation: 'repair' });
  });

  it('adds "remove with dependents…" beside the dependents lens, running the previewed remove', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const lenses = await client.request<unknown, CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const onComp = lenses.filter((l) => l.range.start.line === lineOf(text, `"urn": "${COMP}"`).line);
    assert.deepEqual(
      onComp.map((l) => l.command!.title),
      ['1 dependent', 'remove with dependents…'],
    );
    const [params] = onComp[1].command!.arguments as SurgeryParams[];
    assert.equal(onComp[1].command!.command, SURGERY_COMMANDS.run);
    assert.deepEqual(params, { uri, operation: 'remove', targets: [COMP], targetDependents: true });
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, params);
    assert.equal(applyAnnotated(result.edit!, { [uri]: text }).texts[uri], runSurgery(text, params).source.text);
    // No such lens where nothing depends on the record.
    assert.equal(lenses.filter((l) => l.range.start.line === lineOf(text, `"urn": "${B}"`).line).length, 1);
  });

  it('lists the records for the quick picks, copies by position and delete flag', async () => {
    const text = exportText(records(), PENDING);
    const uri = await open(text);
    const result = await client.request<unknown, SurgeryResourcesResult>(SurgeryResourcesRequest.method, { uri });
    const copies = result.resources.filter((r) => r.urn === OLD);
    assert.deepEqual(
      copies.map((r) => [r.target, r.copy, r.copies, r.delete, r.protect]),
      [
        [`${OLD}#1`, 1, 2, false, true],
        [`${OLD}#2`, 2, 2, true, false],
      ],
    );
    assert.equal(result.resources.find((r) => r.urn === COMP)!.type, 'my:Comp');
    assert.deepEqual(
      result.pending.map((p) => p.type),
      ['updating', 'creating'],
    );
  });

  it('answers a stale resolve with ContentModified and never edits a changed document', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const [action] = await actionsAt(uri, lineOf(text, `"urn": "${B}"`), ['refactor.rewrite.state.protect']);
    await client.change(uri, text.replace('"b1"', '"b2"'));
    await assert.rejects(client.request('codeAction/resolve', action), /changed/);
  });

  it('answers malformed surgery requests with InvalidParams, never an exception', async () => {
    const uri = await open(exportText(records()));
    const bad: unknown[] = [
      { uri, operation: 'explode' },
      { uri, operation: 'remove', targets: 'urn:pulumi:s::p::aws:s3:Bucket::b' },
      { uri, operation: 'remove', targets: [42] },
      { uri, operation: 'rename', targets: [B], newName: 7 },
      { uri, operation: 'move', targets: [B] },
      { uri, operation: 'move', targets: [B], dest: { uri: 'file:///x.json' } },
      { uri: 42, operation: 'remove' },
      { uri: 'file:///not/open.state.json', operation: 'repair' },
      null,
    ];
    for (const params of bad) await assert.rejects(client.request(SurgeryRequest.method, params), /Malformed|not an open state document|needs its destination/, JSON.stringify(params));
    // A resolve whose echoed data is malformed is refused the same way.
    await assert.rejects(client.request('codeAction/resolve', { title: 'x', data: { quotaStateSurgery: { params: { uri, operation: 'remove', targets: {} }, version: 1 } } }), /Malformed/);
  });

  it('honours `only`: a request for quick fixes gets no refactors', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const actions = await actionsAt(uri, lineOf(text, `"urn": "${B}"`), ['quickfix']);
    assert.ok(!actions.some((a) => a.kind?.startsWith('refactor')));
  });
});

describe('state surgery code actions for a client without resolve support', function () {
  this.timeout(60_000);
  let client: LspTestClient;
  before(async () => {
    client = await LspTestClient.start();
  });
  afterEach(() => client.assertNoLoggedErrors());
  after(async () => client?.stop());

  it('computes the annotated edit up front', async () => {
    const text = exportText(records());
    const uri = 'file:///work/surgery/eager.state.json';
    await client.open(uri, text);
    const actions = await client.request<unknown, CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: lineOf(text, `"urn": "${B}"`), end: lineOf(text, `"urn": "${B}"`) },
      context: { diagnostics: [] },
    });
    const protect = actions.find((a) => a.kind === 'refactor.rewrite.state.protect')!;
    const { texts } = applyAnnotated(protect.edit!, { [uri]: text });
    assert.equal(texts[uri], runSurgery(text, { operation: 'protect', targets: [B] }).source.text);
  });
});
