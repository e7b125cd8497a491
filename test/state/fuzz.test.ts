/**
 * Robustness: truncated, mutated and random documents (deep nesting, huge numbers, non-object
 * roots, lone surrogates) never make the analysis throw, and the running server keeps answering.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { exerciseFeatures } from '../helpers/exerciseFeatures';
import { analyzeState } from '../../shared/state/analyze';
import { NavigationIndex } from '../../shared/state/navigation/navigationIndex';
import { fixesFor } from '../../shared/state/services/codeActions';
import { LspTestClient } from '../lsp/client';
import { FIXTURES, fixtureNames } from './fixtures';

const seeds = fixtureNames().map((name) => readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8'));

const mutation = fc.record({
  seed: fc.constantFrom(...seeds),
  at: fc.nat(),
  cut: fc.nat({ max: 40 }),
  insert: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\ud800', '\udfff', '1e999', '-0', 'null', '"urn"', '"4dabf18193072939515e22adb298388d"')),
});

function mutate({ seed, at, cut, insert }: { seed: string; at: number; cut: number; insert: string }): string {
  const offset = at % (seed.length + 1);
  return seed.slice(0, offset) + insert + seed.slice(offset + cut);
}

const extremes = [
  '',
  ' ',
  'null',
  '0',
  '"text"',
  '[]',
  '1e400',
  '{"version": 1e400, "deployment": {}}',
  `{"urn": "\ud800", "type": "\udfff"}`,
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
  `{"urn":"u","inputs":{"x":${'['.repeat(20_000)}${']'.repeat(20_000)}}}`,
  '{"version":3,"deployment":{"manifest":{"time":"t","magic":"","version":""},"resources":[' + '{"urn":"a","parent":"a"},'.repeat(50) + '{"urn":"b"}]}}',
  '\ufeff{"urn":"x"}',
];

function exercise(text: string): void {
  const analysis = analyzeState(text);
  assert.ok(Array.isArray(analysis.diagnostics));
  const navigation = new NavigationIndex(analysis);
  for (const occurrence of navigation.allDefinitions().values()) assert.equal(navigation.occurrenceAt(occurrence.span.offset)?.urn, occurrence.urn);
  for (const diagnostic of analysis.diagnostics.slice(0, 20)) fixesFor(analysis, diagnostic);
}

describe('state analysis robustness (fast-check)', function () {
  this.timeout(300_000);

  it('never throws on extreme documents', () => {
    for (const text of extremes) exercise(text);
  });

  it('never throws on mutated and truncated fixtures', () => {
    fc.assert(
      fc.property(mutation, (m) => exercise(mutate(m))),
      { numRuns: 300 },
    );
  });

  it('never throws on random JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => exercise(JSON.stringify(value))),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.record({ urn: fc.string(), parent: fc.string(), dependencies: fc.array(fc.string()), provider: fc.string(), custom: fc.jsonValue() }, { requiredKeys: [] }), (record) =>
        exercise(JSON.stringify({ version: 3, deployment: { manifest: { time: '', magic: '', version: '' }, resources: [record, record] } })),
      ),
      { numRuns: 200 },
    );
  });

  it('the running server survives mutated documents, keeps answering and logs no exception', async () => {
    const client = await LspTestClient.start();
    try {
      const uri = 'file:///fuzz/doc.state.json';
      let diagnostics = await client.open(uri, seeds[0]);
      const samples = fc.sample(mutation, { numRuns: 25, seed: 7 }).map(mutate);
      for (const text of [...extremes, ...samples]) {
        // The previous version's diagnostics, sent after the edit: what an editor's stale lightbulb asks.
        const stale = diagnostics;
        diagnostics = await client.change(uri, text);
        await exerciseFeatures(client, uri, stale, diagnostics);
        client.assertNoLoggedErrors();
      }
      assert.ok(client.alive);
      const final = await client.change(uri, seeds[0]);
      assert.deepEqual(
        final.map((d) => d.code),
        analyzeState(seeds[0]).diagnostics.map((d) => d.code),
      );
    } finally {
      await client.stop();
    }
  });
});
