/** Every quota-file diagnostic code, through the real language server process. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-protocol';
import { runQuotaState } from '../helpers/processes';
import { LspTestClient } from '../helpers/lspClient';
import { codeList } from '../../shared/codes';
import { QUOTA_CODES } from '../../shared/quota/codes';

const FIXTURE = 'test/fixtures/quota/every-code.quota.jsonc';
const URI = 'file:///workspace/every-code.quota.jsonc';

/** `// want: a, b` markers → "line:code" strings. */
function expectations(text: string): string[] {
  const wants: string[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /\/\/ want: (.+)$/.exec(line);
    if (match) for (const code of match[1].split(',')) wants.push(`${index}:${code.trim()}`);
  });
  return wants.sort();
}

const LSP_SEVERITY: Record<string, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};
const SEVERITY: Record<string, DiagnosticSeverity> = Object.fromEntries(codeList(QUOTA_CODES).map((info) => [info.code, LSP_SEVERITY[info.severity]]));

describe('quota files through the language server: diagnostics', () => {
  let client: LspTestClient;
  let text: string;
  let diagnostics: Diagnostic[];
  before(async () => {
    client = await LspTestClient.start();
    text = readFileSync(FIXTURE, 'utf8');
    diagnostics = await client.open(URI, text, 'jsonc');
  });
  after(() => client.stop());

  it('reports exactly the marked codes on the marked lines', () => {
    const got = diagnostics.map((d) => `${d.range.start.line}:${d.code}`).sort();
    assert.deepEqual(got, expectations(text));
  });

  it('uses the default severity of every code', () => {
    for (const d of diagnostics) assert.equal(d.severity, SEVERITY[String(d.code)], `${d.code}: ${d.message}`);
    const codes = new Set(diagnostics.map((d) => String(d.code)));
    // forgejo-version-mismatch needs a connected server: test/lsp/forgejoVersion.test.ts covers it.
    for (const code of Object.keys(SEVERITY).filter((c) => c !== 'syntax' && c !== 'forgejo-version-mismatch')) assert.ok(codes.has(code), `fixture covers ${code}`);
  });

  it('locates each diagnostic on the exact node', () => {
    const textAt = (d: Diagnostic) => {
      const line = text.split('\n')[d.range.start.line];
      return line.slice(d.range.start.character, d.range.end.line === d.range.start.line ? d.range.end.character : undefined);
    };
    const byCode = (code: string) => diagnostics.filter((d) => d.code === code);
    assert.equal(textAt(byCode('unknown-subject')[0]), '"size:repo:all"');
    assert.equal(textAt(byCode('subject-alias')[0]), '"sizeall"');
    assert.equal(textAt(byCode('invalid-size')[0]), '"lots"');
    assert.equal(textAt(byCode('never-stands')[0]), '0');
    assert.equal(textAt(byCode('unknown-rule')[0]), '"reps"');
    assert.equal(textAt(byCode('unknown-group')[0]), '"ghost"');
    assert.equal(textAt(byCode('schema')[0]), '"colour"');
    assert.equal(textAt(byCode('unused-rule')[0]), '"spare"');
    assert.equal(textAt(byCode('unknown-account')[0]), '"stranger"');
    assert.equal(textAt(byCode('unknown-repo')[0]), '"acme/sight"');
  });

  it('names the thing and suggests the closest spelling', () => {
    const message = (code: string) => String(diagnostics.find((d) => d.code === code)!.message);
    assert.equal(message('unknown-subject'), '"size:repo:all" in rule "typo" is not a quota subject. Did you mean "size:repos:all" or "size:git:all" or "size:all"?');
    assert.equal(message('unknown-rule'), 'Group "free" refers to unknown rule "reps". Did you mean "repos"?');
    assert.equal(message('subject-alias'), `"sizeall" is the seed's spelling of "size:git:all"; real Forgejo servers accept only "size:git:all"`);
    assert.equal(message('schema'), 'Property "colour" is not allowed in rule "odd"');
    assert.match(message('missing-limit'), /^Rule "nolimit" has no limit/);
    assert.match(message('never-stands'), /^Rule "zero" never stands: a limit of 0/);
  });

  it('points duplicates at the first definition and tags unused rules', () => {
    for (const code of ['duplicate-rule', 'duplicate-group', 'duplicate-account', 'duplicate-repo']) {
      const d = diagnostics.find((x) => x.code === code)!;
      assert.equal(d.relatedInformation?.length, 1, code);
      assert.equal(d.relatedInformation![0].location.uri, URI);
      assert.ok(d.relatedInformation![0].location.range.start.line < d.range.start.line, `${code} relates to an earlier line`);
    }
    assert.deepEqual(diagnostics.find((d) => d.code === 'unused-rule')!.tags, [DiagnosticTag.Unnecessary]);
  });

  it('gives `quota-state check` exactly the same diagnostics', () => {
    const result = runQuotaState(['check', FIXTURE, '--format', 'json']);
    assert.equal(result.status, 1);
    const [file] = JSON.parse(result.stdout);
    assert.equal(file.file, FIXTURE);
    const severityWord = ['', 'error', 'warning', 'information', 'hint'];
    assert.deepEqual(
      file.diagnostics,
      diagnostics.map((d) => ({ code: d.code, severity: severityWord[d.severity!], message: d.message, range: d.range })),
    );
  });

  it('reports syntax errors and keeps checking what parsed', async () => {
    const uri = 'file:///workspace/broken.quota.jsonc';
    const broken = await client.open(uri, '{ "rules": [ { "name": "r", "limit": 0, "subjects": ["size:all"] } ], "groups": [ { "name": "g", "rules": ["r"] } ');
    assert.ok(broken.some((d) => d.code === 'syntax' && d.severity === DiagnosticSeverity.Error));
    assert.ok(
      broken.some((d) => d.code === 'never-stands'),
      'semantic checks still run on the parsed part',
    );
  });

  it('updates as the user types, and only publishes the newest version', async () => {
    const uri = 'file:///workspace/typing.quota.jsonc';
    await client.open(uri, '{ "rules": [] }');
    const next = await client.change(uri, '{ "rules": [ { "name": "x", "limit": "1 Gx", "subjects": ["size:all"] } ] }');
    assert.deepEqual(next.map((d) => d.code).sort(), ['invalid-size', 'unused-rule']);
    const fixed = await client.change(uri, '{ "rules": [ { "name": "x", "limit": "1 GB", "subjects": ["size:all"] } ], "groups": [ { "name": "g", "rules": ["x"] } ] }');
    assert.deepEqual(fixed, []);
  });

  it('applies per-code severity overrides from settings', async () => {
    const overridden = await LspTestClient.start({ initializationOptions: { settings: { diagnostics: { severity: { 'unused-rule': 'off', 'never-stands': 'error' } } } } });
    try {
      const result = await overridden.open('file:///workspace/o.quota.jsonc', '{ "rules": [ { "name": "z", "limit": 0, "subjects": ["size:all"] } ] }');
      assert.deepEqual(
        result.map((d) => [d.code, d.severity]),
        [['never-stands', DiagnosticSeverity.Error]],
      );
    } finally {
      await overridden.stop();
    }
  });
});
