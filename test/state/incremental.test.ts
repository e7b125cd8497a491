/**
 * Issue 7: re-analysis after an edit (`reanalyzeState`) gives exactly what a fresh analysis of
 * the new text gives, for edits inside one record (the incremental path), edits that cross
 * records or break the syntax (the full path), and long chains of edits carried version to
 * version, on the fixtures and on generated exports.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyzeState, reanalyzeState, type StateAnalysis } from '../../shared/state/analyze';
import { ScanLocator } from '../../shared/state/model/locate';
import { NavigationIndex } from '../../shared/state/navigation/navigationIndex';
import { editRecord, parseState, resourceLayoutOf, updateState } from '../../shared/state/model/snapshot';
import { changedRegion } from '../../shared/text/changedRegion';
import { LineIndex } from '../../shared/text/lineIndex';
import { generateState } from '../bench/generate';
import { FIXTURES, fixtureNames } from './fixtures';

const seeds = [...fixtureNames().map((name) => readFileSync(join(FIXTURES, `${name}.state.json`), 'utf8')), generateState({ resources: 60, seed: 3, problemsPerThousand: 80 })];

const snippets = [
  'x',
  '"',
  ',',
  '{',
  '}',
  '1',
  ' ',
  '\n',
  '"protect": true, ',
  '"parent": "urn:pulumi:dev::bench::my:index:Component1::missing", ',
  '"delete": true, ',
  '"custom": "yes", ',
  '"id": "',
  ']',
  '"\\u00e9"',
];

const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 12 }), insert: fc.constantFrom(...snippets) });

function apply(text: string, { at, cut, insert }: { at: number; cut: number; insert: string }): string {
  const offset = at % (text.length + 1);
  return text.slice(0, offset) + insert + text.slice(offset + cut);
}

function assertSameAsFresh(incremental: StateAnalysis, text: string): void {
  const fresh = analyzeState(text);
  assert.deepEqual(incremental.diagnostics, fresh.diagnostics);
  assert.equal(incremental.parsedWith, fresh.parsedWith);
  assert.equal(incremental.shape, fresh.shape);
  // (The tolerant parser builds prototype-less objects: compare the JSON.)
  assert.equal(JSON.stringify(incremental.structure.root), JSON.stringify(fresh.structure.root));
  assert.equal(incremental.lines.lineCount, fresh.lines.lineCount);
  for (const offset of [0, text.length >> 2, text.length >> 1, text.length - 1, text.length]) {
    assert.deepEqual(incremental.lines.positionAt(offset), fresh.lines.positionAt(offset));
  }
}

describe('state: re-analysis after edits', () => {
  it('equals a fresh analysis after any single edit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), edit, (seed, change) => {
        const previous = analyzeState(seed);
        const text = apply(seed, change);
        assertSameAsFresh(reanalyzeState(previous, text), text);
      }),
      { numRuns: 400 },
    );
  });

  it('equals a fresh analysis at every step of a chain of edits', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(edit, { minLength: 1, maxLength: 15 }), (seed, changes) => {
        let analysis = analyzeState(seed);
        let text = seed;
        for (const change of changes) {
          text = apply(text, change);
          analysis = reanalyzeState(analysis, text);
          assertSameAsFresh(analysis, text);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('navigates a snapshot derived from the previous version exactly as a fresh one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), edit, (seed, change) => {
        const text = apply(seed, change);
        // As the server does: carry the previous version's index over when only one record changed.
        const before = parseState(seed);
        const previous = new NavigationIndex(before);
        previous.prepare();
        const edit = editRecord(before, text);
        const derived = edit ? previous.derive(edit.snapshot, edit.index) : new NavigationIndex(updateState(before, text));
        const fresh = new NavigationIndex(parseState(text));
        const records = parseState(text).structure.resources.length;
        for (let index = 0; index < records; index++) {
          const occurrences = fresh.occurrencesIn(index);
          assert.deepEqual(derived.occurrencesIn(index), occurrences);
          assert.deepEqual(derived.recordSpan(index), fresh.recordSpan(index));
          for (const occurrence of occurrences) {
            assert.deepEqual(derived.occurrenceAt(occurrence.literal.offset + 1), occurrence);
            if (occurrence.span.length === occurrence.urn.length) assert.equal(text.slice(occurrence.span.offset, occurrence.span.offset + occurrence.span.length), occurrence.urn);
            assert.deepEqual(derived.references(occurrence.urn), fresh.references(occurrence.urn));
            assert.equal(derived.dependentCount(occurrence.urn), fresh.dependentCount(occurrence.urn));
          }
        }
        assert.deepEqual([...derived.allDefinitions()], [...fresh.allDefinitions()]);
        assert.deepEqual([...derived.definedUrns()], [...fresh.definedUrns()]);
      }),
      { numRuns: 150 },
    );
  });

  it('locates every record of a find-references request in one scan', () => {
    const snapshot = parseState(generateState({ resources: 200, seed: 9 }));
    let scans = 0;
    const locator = snapshot.locator;
    const counted = { ...snapshot, locator: { locateAll: (paths: Parameters<typeof locator.locateAll>[0]) => (scans++, locator.locateAll(paths)) } };
    const navigation = new NavigationIndex(counted);
    const stack = snapshot.structure.resources[0].urn!;
    const references = navigation.references(stack);
    assert.ok(references.length > 20, `the stack is every top-level record's parent (${references.length})`);
    assert.equal(scans, 1);
  });

  it('answers a hover in the record being typed in (syntax broken) without scanning the rest of the file', () => {
    const seed = generateState({ resources: 200, seed: 9 });
    const previous = parseState(seed);
    const layout = resourceLayoutOf(previous)!;
    const target = 120;
    const parentAt = seed.indexOf('"parent": "urn', layout.starts[target]);
    assert.ok(parentAt < layout.ends[target], 'the record has a parent');
    // A stray character between two members: the record's syntax breaks, the rest stays valid.
    const text = seed.slice(0, parentAt) + 'y' + seed.slice(parentAt);
    const edit = editRecord(previous, text);
    assert.ok(edit && edit.snapshot.parsedWith === 'tolerant' && edit.index === target, 'the one-record tolerant path was taken');
    const navigation = new NavigationIndex(previous).derive(edit.snapshot, edit.index);
    const scan = ScanLocator.prototype.locateAll;
    let scans = 0;
    ScanLocator.prototype.locateAll = function (this: ScanLocator, paths) {
      scans++;
      return scan.call(this, paths);
    };
    try {
      const occurrence = navigation.occurrenceAt(text.indexOf('urn:', parentAt + 1));
      assert.equal(occurrence?.kind, 'parent');
    } finally {
      ScanLocator.prototype.locateAll = scan;
    }
    assert.equal(scans, 0, 'only the broken record was read');
  });

  it('re-reads only the edited record for an edit inside it, and keeps the other records', () => {
    const seed = generateState({ resources: 40, seed: 5, problemsPerThousand: 50 });
    const previous = analyzeState(seed);
    const layout = resourceLayoutOf(previous)!;
    assert.ok(layout, 'a valid export has a layout');
    assert.equal(layout.starts.length, previous.structure.resources.length);
    const target = 17;
    const at = seed.indexOf('"type"', layout.starts[target]);
    const text = seed.slice(0, at) + '"protect": true, ' + seed.slice(at);
    const next = reanalyzeState(previous, text);
    assertSameAsFresh(next, text);
    assert.ok(next.records?.layout, 'the incremental path was taken');
    assert.notEqual(next.structure.resources[target].value, previous.structure.resources[target].value);
    for (const index of [0, target - 1, target + 1, layout.starts.length - 1]) {
      // Untouched records are the very same objects: nothing else was re-parsed.
      assert.equal(next.structure.resources[index].value, previous.structure.resources[index].value);
    }
    assert.equal((next.structure.resources[target].value as { protect?: boolean }).protect, true);
    assert.equal((previous.structure.resources[target].value as { protect?: boolean }).protect, undefined, 'the previous version is not mutated');
  });

  it('reports the new problem on the edited record, located in the new text', () => {
    const seed = readFileSync(join(FIXTURES, 'clean-export.state.json'), 'utf8');
    const previous = analyzeState(seed);
    assert.deepEqual(previous.diagnostics, []);
    const at = seed.lastIndexOf('"custom": true');
    const text = seed.slice(0, at) + '"colour": 1, ' + seed.slice(at);
    const next = reanalyzeState(previous, text);
    const unknown = next.diagnostics.find((d: { code: string }) => d.code === 'unknown-property');
    assert.ok(unknown, JSON.stringify(next.diagnostics));
    assert.equal(text.slice(next.lines.offsetAt(unknown.range.start), next.lines.offsetAt(unknown.range.end)), '"colour"');
  });
});

describe('text: changed region and line index after an edit', () => {
  const region = fc.record({ text: fc.string({ maxLength: 300 }), at: fc.nat(), cut: fc.nat({ max: 20 }), insert: fc.string({ maxLength: 20 }) });

  it('finds a region outside which both texts agree', () => {
    fc.assert(
      fc.property(region, ({ text, at, cut, insert }) => {
        const edited = apply(text, { at, cut, insert });
        const found = changedRegion(text, edited);
        if (text === edited) return assert.equal(found, undefined);
        assert.ok(found);
        assert.equal(text.slice(0, found.start), edited.slice(0, found.start));
        assert.equal(text.slice(found.oldEnd), edited.slice(found.newEnd));
        assert.ok(found.start <= found.oldEnd && found.start <= found.newEnd);
      }),
      { numRuns: 500 },
    );
  });

  it('finds the region in texts longer than its comparison chunk', () => {
    const text = 'a'.repeat(200_000) + '\n'.repeat(70_000) + 'b'.repeat(100_000);
    const edited = text.slice(0, 150_001) + 'xyz' + text.slice(150_002);
    assert.deepEqual(changedRegion(text, edited), { start: 150_001, oldEnd: 150_002, newEnd: 150_004 });
  });

  it('updates line starts like a fresh scan', () => {
    const lines = fc.string({ maxLength: 200 }).map((s) => s.replace(/[^\n]/g, (c) => (c.charCodeAt(0) % 3 === 0 ? '\n' : c)));
    fc.assert(
      fc.property(lines, fc.nat(), fc.nat({ max: 20 }), lines, (text, at, cut, insert) => {
        const edited = apply(text, { at, cut, insert });
        const found = changedRegion(text, edited);
        if (!found) return;
        const updated = LineIndex.afterEdit(new LineIndex(text), edited, found);
        const fresh = new LineIndex(edited);
        assert.equal(updated.lineCount, fresh.lineCount);
        for (let offset = 0; offset <= edited.length; offset++) assert.deepEqual(updated.positionAt(offset), fresh.positionAt(offset));
      }),
      { numRuns: 300 },
    );
  });
});
