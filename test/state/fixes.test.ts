/**
 * Every state quick fix, applied the way the editor applies it: the result is
 * valid JSON, keeps the file's indentation, and the diagnostic it fixes is gone.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../shared/diagnostics';
import { analyzeState, type StateAnalysisOptions } from '../../shared/state/analyze';
import { applyEdits } from '../../shared/edits';
import { dependencyOrder } from '../../shared/state/passes/fixes';
import { fixesFor } from '../../shared/state/services/codeActions';
import { FIXTURES } from './fixtures';

function fixture(name: string): string {
  return readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8');
}

function only(diagnostics: Diagnostic[], code: string, messagePart = ''): Diagnostic {
  const found = diagnostics.filter((d) => d.code === code && d.message.includes(messagePart));
  assert.equal(found.length, 1, `one ${code} diagnostic matching "${messagePart}"; got ${found.length}`);
  return found[0];
}

/** Applies the fix titled `title` for `diagnostic` and returns the new text. */
function applyFix(text: string, diagnostic: Diagnostic, title: string | RegExp, options: StateAnalysisOptions = {}): string {
  const analysis = analyzeState(text, options);
  const fixes = fixesFor(analysis, diagnostic);
  const fix = fixes.find((f) => (typeof title === 'string' ? f.title === title : title.test(f.title)));
  assert.ok(fix, `fix "${title}" offered; got ${fixes.map((f) => f.title).join(', ') || 'none'}`);
  return applyEdits(text, fix.edits);
}

/** Every line is indented with a multiple of the file's 4 spaces (no tabs, no odd widths). */
function assertIndentation(text: string): void {
  for (const line of text.split('\n')) {
    const indent = line.length - line.trimStart().length;
    assert.equal(indent % 4, 0, `indentation preserved: ${JSON.stringify(line)}`);
    assert.ok(!line.startsWith('\t'));
  }
}

const codesOf = (text: string) => analyzeState(text).diagnostics.map((d) => `${d.code}: ${d.message}`);

describe('state quick fixes', () => {
  it('removes a missing dependency from its array', () => {
    const text = fixture('references');
    const diagnostic = only(analyzeState(text).diagnostics, 'missing-reference', 'Gone::old ');
    const fixed = applyFix(text, diagnostic, /^Remove the reference/);
    JSON.parse(fixed);
    assertIndentation(fixed);
    assert.ok(!codesOf(fixed).some((m) => m.includes('Gone::old ')));
    assert.ok(fixed.includes('"dependencies": [ "urn:pulumi:dev::shop::x:y:Topic::events" ]'));
  });

  it('removes a missing parent property, and the only element of a property dependency list', () => {
    let text = fixture('references');
    text = applyFix(text, only(analyzeState(text).diagnostics, 'missing-reference', 'nobody'), /^Remove the reference/);
    text = applyFix(text, only(analyzeState(text).diagnostics, 'missing-reference', 'older'), /^Remove the reference/);
    JSON.parse(text);
    assertIndentation(text);
    assert.ok(!text.includes('nobody') && !text.includes('Gone::older'));
    assert.ok(text.includes('"topic": []'), 'the emptied list collapses to []');
  });

  it('removes a self-reference', () => {
    const text = fixture('references');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'self-reference'), /^Remove the reference/);
    JSON.parse(fixed);
    assert.ok(!codesOf(fixed).some((m) => m.startsWith('self-reference')));
  });

  it('reorders resources into dependency order, fixing every forward reference at once', () => {
    const text = fixture('deployment');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'forward-reference'), 'Reorder resources into dependency order');
    JSON.parse(fixed);
    assert.ok(!codesOf(fixed).some((m) => m.startsWith('forward-reference')));
    assert.ok(fixed.indexOf('::second"') < fixed.indexOf('::first"'));
    // Stable: nothing left to reorder, so no second fix.
    const again = analyzeState(fixed);
    assert.deepEqual(dependencyOrder(again), [0, 1]);
  });

  it('reorders stably: only what must move moves; a cycle keeps its forward reference', () => {
    const text = fixture('references');
    const before = analyzeState(text);
    const fixed = applyFix(
      text,
      before.diagnostics.find((d) => d.code === 'forward-reference')!,
      'Reorder resources into dependency order',
    );
    JSON.parse(fixed);
    assertIndentation(fixed);
    const order = ['shop-dev', 'Topic::events', 'Queue::jobs', 'A::a', 'B::b'].map((name) => fixed.indexOf(`${name}",\n`));
    assert.deepEqual(
      [...order].sort((a, b) => a - b),
      order,
      'stack, events, jobs, then the a/b cycle in its original order',
    );
    const remaining = analyzeState(fixed).diagnostics.filter((d) => d.code === 'forward-reference');
    assert.equal(remaining.length, 1, 'only the cycle a → b → a remains');
    assert.match(remaining[0].message, /x:y:B::b comes after/);
  });

  it('recomputes the manifest magic', () => {
    const text = fixture('providers');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'magic-mismatch'), 'Recompute the manifest magic');
    assert.ok(!codesOf(fixed).some((m) => m.startsWith('magic-mismatch')));
    assert.ok(fixed.includes('"magic": "3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250"'));
  });

  it('marks a duplicate "delete": true with the record\'s own indentation', () => {
    const text = fixture('records');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'duplicate-urn'), 'Mark this duplicate "delete": true');
    JSON.parse(fixed);
    assertIndentation(fixed);
    assert.ok(!codesOf(fixed).some((m) => m.startsWith('duplicate-urn')));
    assert.match(fixed, /\n {16}"delete": true,\n {16}"urn": "urn:pulumi:dev::shop::my:app:Part::twice"/);
  });

  it("points a provider reference at the matching provider's current id", () => {
    const text = fixture('providers');
    const diagnostic = only(analyzeState(text).diagnostics, 'unknown-provider', 'old-id');
    const fixed = applyFix(text, diagnostic, /^Point the provider reference at/);
    assert.ok(fixed.includes('"provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::current-id"'));
    assert.ok(!codesOf(fixed).some((m) => m.includes('old-id')));
  });

  it('offers the reorder for a provider declared after its user', () => {
    const text = fixture('providers');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'unknown-provider', 'declared after'), 'Reorder resources into dependency order');
    assert.ok(!codesOf(fixed).some((m) => m.includes('declared after')));
  });

  it('removes a disallowed property (unknown and, in seed-v3 mode, newer-engine)', () => {
    let text = fixture('schema');
    const seed = { stateSchema: 'seed-v3' as const };
    const diagnostics = (t: string) => analyzeState(t, seed).diagnostics;
    text = applyFix(text, only(diagnostics(text), 'unknown-property', 'colour'), 'Remove property "colour"', seed);
    text = applyFix(text, only(diagnostics(text), 'unknown-property', '"created"'), 'Remove property "created"', seed);
    text = applyFix(text, only(diagnostics(text), 'unknown-property', 'extra'), 'Remove property "extra"', seed);
    JSON.parse(text);
    assertIndentation(text);
    const left = diagnostics(text).map((d) => `${d.code}: ${d.message}`);
    assert.ok(!left.some((m) => /colour|created|extra/.test(m)), left.join('\n'));
  });

  it('renames an unknown property to the declared field it resembles (did you mean)', () => {
    const text = fixture('pulumi-loader');
    const fixed = applyFix(text, only(analyzeState(text).diagnostics, 'unknown-property', 'protcet'), 'Rename to "protect"');
    assert.equal((JSON.parse(fixed).deployment.resources[1] as Record<string, unknown>).protect, true);
    assert.ok(!codesOf(fixed).some((m) => m.startsWith('unknown-property')));
  });

  it('removes an unsupported feature, every occurrence of a legacy property, and adds a missing snippet uuid', () => {
    let text = fixture('pulumi-loader');
    text = applyFix(text, only(analyzeState(text).diagnostics, 'unsupported-feature'), 'Remove the unsupported feature "time-travel"');
    assert.deepEqual(JSON.parse(text).features, ['snippets-prototype']);
    text = applyFix(text, only(analyzeState(text).diagnostics, 'legacy-property'), 'Remove the legacy property "sequenceNumber" (2 occurrences)');
    text = applyFix(text, only(analyzeState(text).diagnostics, 'invalid-snippet', 'missing'), 'Add a snippet uuid');
    JSON.parse(text);
    assertIndentation(text);
    const left = codesOf(text);
    assert.ok(!left.some((m) => /unsupported-feature|legacy-property|missing the required "uuid"/.test(m)), left.join('\n'));
    assert.match(JSON.parse(text).deployment.snippets[1].uuid, /^[0-9a-f-]{36}$/);
  });
});

describe('the example export (examples/webshop.state.json)', () => {
  it('shows every deliberate problem, and one click per problem leaves a clean file', () => {
    let text = readFileSync(join(__dirname, '..', '..', 'examples', 'webshop.state.json'), 'utf8');
    const codes = analyzeState(text).diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ['forward-reference', 'forward-reference', 'unknown-provider', 'missing-reference']);
    for (let clicks = 0; clicks < 10; clicks++) {
      const next = analyzeState(text).diagnostics[0];
      if (!next) break;
      const fix = fixesFor(analyzeState(text), next).find((f) => f.preferred);
      assert.ok(fix, `a preferred fix for ${next.code}`);
      text = applyEdits(text, fix.edits);
      JSON.parse(text);
      assertIndentation(text);
    }
    assert.deepEqual(analyzeState(text).diagnostics, []);
  });
});
