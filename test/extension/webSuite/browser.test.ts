/**
 * The extension in the browser's web worker extension host (vscode.dev, github.dev): the browser
 * build (dist/web/) with its language server in a web worker, on the workspace's remote file
 * system, and the quota API through fetch. The runner starts the reference API with CORS and
 * passes its address in the workspace settings (`quotaStateTest.apiBaseUrl`).
 */
import * as vscode from 'vscode';
import { activeExtension, codeOf, diagnosticsWith, revertAndCloseAll, setSetting, waitFor, workspaceUri } from '../common';
import { backendsScenario } from '../backendsScenario';
import { resourceGraphScenario } from '../resourceGraphScenario';
import { figures } from '../startupFigure';
import { equal, match, ok } from './expect';

/** gzip with the platform's CompressionStream, as a DIY backend with PULUMI_DIY_BACKEND_GZIP writes. */
async function gzip(bytes: Uint8Array, times = 1): Promise<Uint8Array> {
  let sent = 0;
  const reader = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < times) controller.enqueue(bytes);
      else controller.close();
    },
  })
    .pipeThrough(new CompressionStream('gzip'))
    .getReader();
  const chunks: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

describe('in the browser (web worker extension host)', () => {
  before(async () => {
    await activeExtension();
  });

  afterEach(revertAndCloseAll);

  it('runs where there is no Node: no `process` inside the extension', async () => {
    const { extension, hooks } = await activeExtension();
    equal(hooks.processType, 'undefined');
    equal(typeof process, 'undefined', 'the tests share the extension host');
    ok(extension.isActive);
  });

  it("publishes a state file's diagnostics and applies a quick fix", async () => {
    const { hooks } = await activeExtension();
    const uri = workspaceUri('stack.state.json');
    // Changes the workbench makes to the document after it opens are counted in the figures the suite
    // reports: a change during a code-action request cancels it (VS Code's TextModelCancellationTokenSource).
    let contentChanges = 0;
    const watch = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() === uri.toString() && event.contentChanges.length > 0) figures().webStateContentChangesBeforeFix = ++contentChanges;
    });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsWith(uri, ['missing-reference', 'magic-mismatch']);
    const magic = diagnostics.find((d) => codeOf(d) === 'magic-mismatch')!;
    const status = await waitFor('a document status', () => hooks.documentStatus(uri.toString()), [hooks.onDocumentStatus]);
    equal(status.kind, 'state');

    // Asked until offered, as VS Code's light bulb asks again: a request the workbench cancelled
    // (the document changed under it) or answered for an older version is counted, then retried.
    let offered: string[] = [];
    let unanswered = 0;
    const fix = await waitFor(
      'the magic-mismatch quick fix',
      async () => {
        let actions: vscode.CodeAction[];
        try {
          actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, magic.range);
        } catch (error) {
          if (!(error instanceof Error) || (error.name !== 'Canceled' && error.message !== 'Canceled')) throw error;
          figures().webQuickFixUnanswered = ++unanswered;
          return undefined;
        }
        offered = actions.map((a) => a.title);
        const found = actions.find((action) => action.edit && /Recompute the manifest magic/.test(action.title));
        if (!found) figures().webQuickFixUnanswered = ++unanswered;
        return found;
      },
      [vscode.languages.onDidChangeDiagnostics, vscode.workspace.onDidChangeTextDocument],
      60_000,
    )
      .catch((error: Error) => {
        throw new Error(`${error.message}; offered: ${offered.join(' | ')}`);
      })
      .finally(() => watch.dispose());
    ok(fix, 'no quick fix for magic-mismatch');
    ok(await vscode.workspace.applyEdit(fix.edit!));
    await waitFor('the magic-mismatch diagnostic to go away', () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'magic-mismatch') ? undefined : true), [
      vscode.languages.onDidChangeDiagnostics,
    ]);
  });

  it('reads .quota-state.json through vscode.workspace.fs: its severity overrides apply', async () => {
    const folder = workspaceUri('configured');
    const config = vscode.Uri.joinPath(folder, '.quota-state.json');
    const uri = vscode.Uri.joinPath(folder, 'stack.state.json');
    await vscode.workspace.fs.writeFile(config, new TextEncoder().encode('{ "severity": { "missing-reference": "hint" } }\n'));
    await vscode.workspace.fs.copy(workspaceUri('stack.state.json'), uri, { overwrite: true });
    try {
      await vscode.window.showTextDocument(uri);
      await waitFor(
        'missing-reference at the hint level of the project configuration',
        () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'missing-reference' && d.severity === vscode.DiagnosticSeverity.Hint) ? true : undefined),
        [vscode.languages.onDidChangeDiagnostics],
      );
    } finally {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(folder, { recursive: true });
    }
  });

  it("checks an app.ini's DEFAULT_GROUPS against the quota file beside it, found through vscode.workspace.fs", async () => {
    const folder = workspaceUri('forgejo');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(folder, 'quota.jsonc'),
      new TextEncoder().encode('{ "rules": [{ "name": "r", "limit": "1 GiB", "subjects": ["size:all"] }], "groups": [{ "name": "free", "rules": ["r"] }] }\n'),
    );
    const ini = vscode.Uri.joinPath(folder, 'app.ini');
    await vscode.workspace.fs.writeFile(ini, new TextEncoder().encode('[quota]\nENABLED = true\nDEFAULT_GROUPS = free, enterprise\n'));
    try {
      const document = await vscode.workspace.openTextDocument(ini);
      equal(document.languageId, 'ini');
      await vscode.window.showTextDocument(document);
      const flagged = await waitFor(
        'unknown-default-group for "enterprise" (and not for "free")',
        () => {
          const found = vscode.languages.getDiagnostics(ini).filter((d) => codeOf(d) === 'unknown-default-group');
          return found.length ? found : undefined;
        },
        [vscode.languages.onDidChangeDiagnostics],
      );
      equal(flagged.length, 1);
      match(flagged[0].message, /enterprise/);
      match(flagged[0].message, /quota\.jsonc/);
    } finally {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(folder, { recursive: true });
    }
  });

  it('removes a resource with its dependents in one confirmed step, saved; one undo restores it', async () => {
    const { hooks } = await activeExtension();
    const urn = (type: string, name: string) => `urn:pulumi:dev::shop::${type}::${name}`;
    const [root, site, bucket, policy] = [
      urn('pulumi:pulumi:Stack', 'shop-dev'),
      urn('my:web:Site', 'site'),
      urn('my:web:Site$aws:s3/bucket:Bucket', 'assets'),
      urn('aws:s3/bucketPolicy:BucketPolicy', 'policy'),
    ];
    const resources = [
      { urn: root, custom: false, type: 'pulumi:pulumi:Stack' },
      { urn: site, custom: false, type: 'my:web:Site', parent: root },
      { urn: bucket, custom: true, id: 'assets-1', type: 'aws:s3/bucket:Bucket', parent: site },
      { urn: policy, custom: true, id: 'policy-1', type: 'aws:s3/bucketPolicy:BucketPolicy', parent: root, dependencies: [bucket] },
    ];
    const text = `${JSON.stringify({ version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, resources } }, null, 4)}\n`;
    const uri = workspaceUri('confirmed.state.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document);
      await waitFor('the state file recognised', () => (hooks.documentStatus(uri.toString())?.kind === 'state' ? true : undefined), [hooks.onDocumentStatus]);
      const before = hooks.shownMessages().length;
      hooks.answerConfirmations('Remove 3 Resources');
      const applied = await vscode.commands.executeCommand<boolean>('quotaState.state.run', { uri: uri.toString(), operation: 'remove', targets: [site], targetDependents: true });
      equal(applied, true, 'applied once confirmed');
      const asked = hooks
        .shownMessages()
        .slice(before)
        .find((m) => m.detail !== undefined);
      equal(asked?.text, 'Remove site and its dependents?');
      const onDisk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      ok(!onDisk.includes(site) && !onDisk.includes(bucket) && !onDisk.includes(policy) && onDisk.includes(root), `on disk in the same action: ${onDisk}`);
      await vscode.commands.executeCommand('undo');
      equal(document.getText(), text, 'one undo restores the whole edit');
    } finally {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(uri);
    }
  });

  it("decrypts a state's secrets with WebCrypto in the worker: the passphrase entered, secret-undecryptable, Reveal in the hover", async () => {
    // Ciphertexts the real Pulumi made (test/fixtures/secrets/pulumi-vectors.json): one under the state's salt, one under another stack's.
    const sig = { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270' };
    const outputs = {
      dbPassword: { ...sig, ciphertext: 'v1:Uv1J5dn81D2g9a95:9uOZ+vh2utZwgX6RN3qnEH5t+2RgZeAMhg==' },
      copied: { ...sig, ciphertext: 'v1:J0Hk6ukZ3If3Mp9z:xkW3/tBEs5Oq7vQi4Un9YTQf9Q2eXaz4Mg==' },
      exported: { ...sig, plaintext: '"in-the-clear"' },
    };
    const salt = 'v1:ViwVh7GW9bY=:v1:eu2Fl9j6FEZUx9U6:F/n8TT3z2Hf2Yi/P52/GnuOZ9gxKGA==';
    const resources = [{ urn: 'urn:pulumi:dev::vectors::x:y:Db::db', custom: true, id: 'db-1', type: 'x:y:Db', outputs }];
    const text = JSON.stringify(
      { version: 3, deployment: { manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' }, secrets_providers: { type: 'passphrase', state: { salt } }, resources } },
      null,
      2,
    );
    const uri = workspaceUri('secrets.state.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document);
      await diagnosticsWith(uri, ['secret-in-plaintext']);
      equal(await vscode.commands.executeCommand('quotaState.secrets.enterPassphrase', uri.toString(), { passphrase: 'correct horse battery staple' }), true);
      const diagnostics = await diagnosticsWith(uri, ['secret-undecryptable']);
      equal(diagnostics.find((d) => codeOf(d) === 'secret-undecryptable')?.severity, vscode.DiagnosticSeverity.Warning);
      const offset = text.indexOf('"v1:', text.indexOf('"dbPassword"'));
      equal(await vscode.commands.executeCommand('quotaState.secrets.reveal', { uri: uri.toString(), version: document.version, offset }), true);
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, document.positionAt(offset + 5));
      match(hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n'), /\bhunter2\b/);
    } finally {
      await vscode.commands.executeCommand('quotaState.secrets.forgetPassphrases');
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('opens a gzip-compressed DIY stack file through pulumi-gz: and checks it', async () => {
    const source = await vscode.workspace.fs.readFile(workspaceUri('stack.state.json'));
    const compressed = await gzip(source);
    const file = workspaceUri('dev.json.gz');
    await vscode.workspace.fs.writeFile(file, compressed);
    try {
      const opened = await vscode.commands.executeCommand<vscode.TextDocument | undefined>('quotaState.state.openCompressed', file);
      ok(opened && opened.uri.scheme === 'pulumi-gz', `expected a pulumi-gz: document, got ${opened?.uri.toString()}`);
      await diagnosticsWith(opened.uri, ['missing-reference', 'magic-mismatch']);
    } finally {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(file);
    }
  });

  it('refuses to open a gzip bomb through pulumi-gz: (257 MiB of zeros in ~260 KB), naming the file and the limit', async () => {
    const file = workspaceUri('bomb.json.gz');
    await vscode.workspace.fs.writeFile(file, await gzip(new Uint8Array(1024 * 1024), 257));
    try {
      const refusal = await vscode.commands.executeCommand('quotaState.state.openCompressed', file).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      ok(refusal !== undefined, 'the bomb was opened');
      match(refusal, /bomb\.json\.gz decompresses to more than 256 MiB, the limit for a decompressed file/);
    } finally {
      await revertAndCloseAll();
      await vscode.workspace.fs.delete(file);
    }
  });

  it('draws the resource graph in the webview: a focus, a click that refocuses and reveals, a search, edits and a syntax error', async () => {
    await resourceGraphScenario('graph-web.state.json');
  });

  it('shows a real DIY backend in the Pulumi Backends view: its tree, a gzip checkpoint opened, versions compared', async () => {
    await backendsScenario();
  });

  it('previews the evaluation of a quota file', async () => {
    const uri = workspaceUri('team.quota.jsonc');
    await vscode.window.showTextDocument(uri);
    const result = await vscode.commands.executeCommand<{ report: { accounts: Array<{ name: string }> }; text: string }>('quotaState.previewEvaluation', {
      uri: uri.toString(),
      show: false,
    });
    ok(result, 'no preview');
    ok(
      result.report.accounts.some((account) => account.name === 'dora'),
      'the usage scenario "dora" is missing',
    );
    match(result.text, /\| group \| rule \| used \| limit \|/);
  });

  it('signs in and lists the rules of the reference API through fetch, across origins (CORS)', async () => {
    const baseUrl = vscode.workspace.getConfiguration('quotaStateTest').get<string>('apiBaseUrl');
    ok(baseUrl, 'the runner passes the API address in quotaStateTest.apiBaseUrl');
    await setSetting('api.baseUrl', baseUrl);
    await setSetting('api.timeout', 10_000);
    try {
      const account = await vscode.commands.executeCommand<string | undefined>('quotaState.signIn', { token: 'demo-root-token' });
      equal(account, 'root');
      const rules = await vscode.commands.executeCommand<Array<{ name: string }>>('quotaState.listRules', {});
      ok(Array.isArray(rules) && rules.some((rule) => rule.name === 'repos-100m'), JSON.stringify(rules));
    } finally {
      await vscode.commands.executeCommand('quotaState.signOut');
      await setSetting('api.baseUrl', undefined);
      await setSetting('api.timeout', undefined);
    }
  });
});
