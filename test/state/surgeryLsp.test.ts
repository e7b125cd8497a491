/**
 * State surgery through the real built server (dist/server/server.js --stdio): the refactor code
 * actions on the resource under the cursor, the quick fix and hover per pending operation, the
 * "remove with dependents…" lens and the surgery requests. Every action runs the client's confirmed
 * command; the edit it gets is plain (no annotation for VS Code to leave unticked), comes with the
 * confirmation's words, and applying it must give exactly the text shared/state/surgery gives (the
 * CLI's result).
 */
import { strict as assert } from 'node:assert';
import type { CodeAction, CodeLens, Command, Hover, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SHOW_RESOURCE_GRAPH_COMMAND, SURGERY_COMMANDS, SurgeryRequest, SurgeryResourcesRequest, type SurgeryParams, type SurgeryResourcesResult, type SurgeryResult } from '../../shared/protocol';
import { runSurgery } from '../../shared/state/surgery';
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

/**
 * Checks the edit's shape (versioned documentChanges, no change annotation: confirmed once in the
 * client's modal, it applies whole, never half ticked in a preview) and applies it to each file.
 */
function applyPlain(edit: WorkspaceEdit, texts: Record<string, string>): Record<string, string> {
  assert.ok(edit.documentChanges?.length, 'the edit comes as documentChanges');
  assert.equal(edit.changeAnnotations, undefined, 'no change annotation');
  const out = { ...texts };
  for (const change of edit.documentChanges as TextDocumentEdit[]) {
    assert.ok(change.edits.length > 0);
    for (const e of change.edits) assert.equal((e as { annotationId?: string }).annotationId, undefined, 'no edit carries an annotation');
    assert.ok(change.textDocument.uri in out, `an edit to ${change.textDocument.uri}`);
    out[change.textDocument.uri] = applyEdits(out[change.textDocument.uri], change.edits as TextEdit[]);
  }
  return out;
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
  /** What the client's command does with an action: asks the server for the edit and its confirmation. */
  async function runAction(action: CodeAction): Promise<SurgeryResult> {
    assert.equal(action.edit, undefined, "an action's own edit would apply without the confirmation");
    assert.equal(action.command?.command, SURGERY_COMMANDS.run);
    const [params] = action.command.arguments as [SurgeryParams];
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, params);
    assert.ok(result.confirmation, 'an edit comes with its confirmation');
    return result;
  }
  /** The action of `kind` at the record holding `needle`, run, applied; compared with the operation run directly. */
  async function check(text: string, needle: string, kind: string, call: Omit<SurgeryParams, 'uri'>, nth = 0) {
    const uri = await open(text);
    const actions = await actionsAt(uri, lineOf(text, needle, nth));
    const action = actions.find((a) => a.kind === kind);
    assert.ok(action, `a ${kind} action among ${actions.map((a) => `${a.kind}: ${a.title}`).join('; ')}`);
    const result = await runAction(action);
    const texts = applyPlain(result.edit!, { [uri]: text });
    const expected = runSurgery(text, { ...call }).source;
    assert.equal(expected.status, 'applied');
    assert.equal(texts[uri], expected.text, "the edit gives exactly the operation's text");
    return { uri, action, description: result.description, confirmation: result.confirmation!, after: texts[uri], actions };
  }

  it('offers remove with dependents on a resource that has them, with what it removes in the confirmation', async () => {
    const { action, description, confirmation, after } = await check(exportText(records()), `"urn": "${COMP}"`, 'refactor.rewrite.state.removeWithDependents', {
      operation: 'remove',
      targets: [COMP],
      targetDependents: true,
    });
    assert.match(action.title, /^Remove comp with its dependents/);
    assert.match(description, /dependents removed: child, a, b/);
    assert.equal(confirmation.question, 'Remove comp and its dependents?');
    assert.equal(confirmation.action, 'Remove 4 Resources');
    assert.deepEqual(confirmation.details.slice(0, 2), ['Removes: comp', 'Dependents removed with it: child, a, b']);
    assert.deepEqual(confirmation.protectedOverridden, []);
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

  it('removes a protected resource only as a forced remove, saying so in the title and in the confirmation', async () => {
    const { action, confirmation } = await check(exportText(records()), `"id": "o1"`, 'refactor.rewrite.state.remove', { operation: 'remove', targets: [`${OLD}#1`], force: true });
    assert.equal(action.title, 'Remove protected resource old (copy 1 of 2), overriding protection');
    assert.equal(confirmation.question, 'old is protected: Remove old?');
    assert.equal(confirmation.action, 'Remove Anyway');
    assert.deepEqual(confirmation.protectedOverridden, [OLD]);
    assert.match(confirmation.details[0], /^old is protected: removing it overrides its protect flag/);
  });

  it('asks about a protected resource in the same confirmation when the command did not force (the context menu)', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'remove', targets: [`${OLD}#1`] });
    assert.equal(result.status, 'applied', 'no refusal that names a flag the editor cannot take');
    assert.equal(result.confirmation!.action, 'Remove Anyway');
    assert.deepEqual(result.confirmation!.protectedOverridden, [OLD]);
    assert.equal(applyPlain(result.edit!, { [uri]: text })[uri], runSurgery(text, { operation: 'remove', targets: [`${OLD}#1`], force: true }).source.text);
    const plain = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'remove', targets: [B] });
    assert.equal(plain.confirmation!.action, 'Remove 1 Resource');
    assert.deepEqual(plain.confirmation!.protectedOverridden, []);
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
    assert.equal((rename.command as Command).command, 'quotaState.state.rename');
    assert.deepEqual(rename.command!.arguments, [{ uri, targets: [COMP] }]);
    const move = actions.find((a) => a.kind === 'refactor.rewrite.state.move')!;
    assert.equal(move.command!.command, 'quotaState.state.move');

    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, { uri, operation: 'rename', targets: [COMP], newName: 'widget' });
    assert.equal(result.status, 'applied');
    const texts = applyPlain(result.edit!, { [uri]: text });
    assert.equal(result.confirmation!.question, 'Rename comp to widget?');
    assert.equal(result.confirmation!.action, 'Rename');
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
    const texts = applyPlain(result.edit!, { [uri]: text, [destUri]: destText });
    const { description } = result;
    assert.match(result.confirmation!.details.join('\n'), /References cut: b → a/);
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
    const done = await runAction(fix);
    const texts = applyPlain(done.edit!, { [uri]: text });
    const { description } = done;
    assert.equal(done.confirmation!.action, 'Clear 1 Pending Operation');
    assert.match(done.confirmation!.details.join('\n'), /Pending operations cleared: creating new/);
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

  it('adds "graph" and "remove with dependents…" beside the dependents lens, running the confirmed remove', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const lenses = await client.request<unknown, CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    const onComp = lenses.filter((l) => l.range.start.line === lineOf(text, `"urn": "${COMP}"`).line);
    assert.deepEqual(
      onComp.map((l) => l.command!.title),
      ['1 dependent', 'graph', 'remove with dependents…'],
    );
    assert.equal(onComp[1].command!.command, SHOW_RESOURCE_GRAPH_COMMAND);
    assert.deepEqual(onComp[1].command!.arguments, [{ uri, urn: COMP }]);
    const [params] = onComp[2].command!.arguments as SurgeryParams[];
    assert.equal(onComp[2].command!.command, SURGERY_COMMANDS.run);
    assert.deepEqual(params, { uri, operation: 'remove', targets: [COMP], targetDependents: true });
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, params);
    assert.equal(applyPlain(result.edit!, { [uri]: text })[uri], runSurgery(text, params).source.text);
    // No remove lens where nothing depends on the record: its dependents count and its graph only.
    assert.deepEqual(
      lenses.filter((l) => l.range.start.line === lineOf(text, `"urn": "${B}"`).line).map((l) => l.command!.title),
      ['0 dependents', 'graph'],
    );
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

  it('computes the edit on the current text, and names its version so a changed document refuses it', async () => {
    const text = exportText(records());
    const uri = await open(text);
    const [action] = await actionsAt(uri, lineOf(text, `"urn": "${B}"`), ['refactor.rewrite.state.protect']);
    const changed = text.replace('"b1"', '"b2"');
    await client.change(uri, changed);
    const result = await runAction(action);
    const [change] = result.edit!.documentChanges as TextDocumentEdit[];
    assert.equal(change.textDocument.version, 2, 'the version the edit was computed on');
    assert.equal(applyPlain(result.edit!, { [uri]: changed })[uri], runSurgery(changed, { operation: 'protect', targets: [B] }).source.text);
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

  it('offers the same command actions, which the client confirms before applying', async () => {
    const text = exportText(records());
    const uri = 'file:///work/surgery/eager.state.json';
    await client.open(uri, text);
    const actions = await client.request<unknown, CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: lineOf(text, `"urn": "${B}"`), end: lineOf(text, `"urn": "${B}"`) },
      context: { diagnostics: [] },
    });
    const protect = actions.find((a) => a.kind === 'refactor.rewrite.state.protect')!;
    assert.equal(protect.edit, undefined);
    assert.deepEqual(protect.command?.arguments, [{ uri, targets: [B], operation: 'protect' }]);
    const result = await client.request<SurgeryParams, SurgeryResult>(SurgeryRequest.method, protect.command!.arguments![0] as SurgeryParams);
    assert.equal(applyPlain(result.edit!, { [uri]: text })[uri], runSurgery(text, { operation: 'protect', targets: [B] }).source.text);
  });
});
