/**
 * Placing a diagnostic jumps to its record by searching for `"urn": "<urn>"` (recordFinder.ts)
 * instead of reading every record before it. The urn's text also occurs where the record is not: in
 * resource references of earlier records' outputs, in dependencies, in a second copy of the record,
 * or inside a string. Whatever the file holds and however it is laid out, every span must be the one
 * the bracket-by-bracket scan gives.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { pathKey, ScanLocator, type JsonPath } from '../../shared/state/model/locate';
import { recordFinder } from '../../shared/state/model/recordFinder';
import { parseState } from '../../shared/state/model/snapshot';

const REFERENCE_SIGNATURE = { '4dabf18193072939515e22adb298388d': '5cf8f73096256a8f31e491e813e4eb8e' };
const names = ['a', 'b', 'c', 'web', 'db', 'a$b', 'x"y', 'new\nline', 'tab\t', 'uni\u2028code'];
const urnOf = (name: string) => `urn:pulumi:dev::proj::aws:s3/bucket:Bucket::${name}`;

/** A record, with what makes a search go wrong: references to other urns, copies of a record inside strings and objects. */
const record = fc.record({
  name: fc.constantFrom(...names),
  urnFirst: fc.boolean(),
  mentions: fc.array(fc.constantFrom(...names), { maxLength: 3 }),
  embedsRecordOf: fc.option(fc.constantFrom(...names), { nil: undefined }),
  inString: fc.option(fc.constantFrom(...names), { nil: undefined }),
  /** Followed by an identical copy (a duplicated urn whose records are alike). */
  twin: fc.boolean(),
});

function buildRecord(spec: { name: string; urnFirst: boolean; mentions: string[]; embedsRecordOf?: string; inString?: string }): Record<string, unknown> {
  const urn = urnOf(spec.name);
  const outputs: Record<string, unknown> = {};
  spec.mentions.forEach((name, i) => (outputs[`ref${i}`] = { ...REFERENCE_SIGNATURE, id: 'x', urn: urnOf(name) }));
  // An object that looks exactly like another record (urn first) nested in this one's outputs.
  if (spec.embedsRecordOf) outputs.copy = { urn: urnOf(spec.embedsRecordOf), custom: true, type: 'aws:s3/bucket:Bucket' };
  if (spec.inString) outputs.text = JSON.stringify({ urn: urnOf(spec.inString) }, null, 1);
  const body = { custom: true, type: 'aws:s3/bucket:Bucket', outputs, dependencies: spec.mentions.map(urnOf) };
  return spec.urnFirst ? { urn, ...body } : { ...body, urn };
}

describe('state: jumping to a record by its urn places everything where the full scan does', () => {
  it('for any records, duplicates, look-alikes and layout, and any sample of paths', () => {
    fc.assert(
      fc.property(
        fc.array(record, { minLength: 1, maxLength: 12 }),
        fc.constantFrom(undefined, 2, 4, '\t'),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom<JsonPath>([], ['urn'], ['outputs'], ['dependencies', 0], ['type'])), { minLength: 1, maxLength: 4 }),
        (specs, indent, picks) => {
          // Records far enough ahead to be searched for (locate.ts reads the next few dozen instead).
          const fillers = Array.from({ length: 70 }, (_, i) => buildRecord({ name: `filler${i}`, urnFirst: true, mentions: [] }));
          const resources = [...fillers, ...specs.flatMap((spec) => (spec.twin ? [buildRecord(spec), buildRecord(spec)] : [buildRecord(spec)]))];
          const text = JSON.stringify({ version: 3, deployment: { manifest: { time: 't' }, resources } }, null, indent);
          const snapshot = parseState(text);
          const records = snapshot.structure.resources.slice(fillers.length);
          const paths = picks.map(([i, below]) => [...records[i % records.length].path, ...below]);
          for (const stopWhenFound of [true, false]) {
            const jumped = snapshot.locator.locateAll(paths, { stopWhenFound });
            const scanned = new ScanLocator(text).locateAll(paths, { stopWhenFound });
            for (const path of paths) assert.deepEqual(jumped.get(pathKey(path)), scanned.get(pathKey(path)), `${pathKey(path)} in\n${text}`);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('jumps over the records before the one asked about (the search is used, not only the scan)', () => {
    const resources = Array.from({ length: 200 }, (_, i) => buildRecord({ name: `r${i}`, urnFirst: true, mentions: i > 0 ? [`r${i - 1}`] : [] }));
    const text = JSON.stringify({ version: 3, deployment: { manifest: { time: 't' }, resources } }, null, 4);
    const { structure } = parseState(text);
    const search = recordFinder(text, structure.resources);
    const answers: Array<number | undefined> = [];
    const finder = { startOf: (index: number, from: number) => answers[answers.push(search.startOf(index, from)) - 1] };
    const path = [...structure.resources[150].path, 'type'];
    const located = new ScanLocator(text, undefined, { path: structure.resourcesPath!, finder }).locateAll([path], { stopWhenFound: true });
    const span = located.get(pathKey(path))!.value;
    assert.equal(text.slice(span.offset, span.offset + span.length), '"aws:s3/bucket:Bucket"');
    assert.deepEqual(answers, [text.lastIndexOf('{', text.indexOf(`"urn": "${urnOf('r150')}"`))]);
  });

  it('stops searching after a search that found nothing: a file written otherwise would pay a full read per record', () => {
    const resources = Array.from({ length: 200 }, (_, i) => buildRecord({ name: `r${i}`, urnFirst: i !== 100, mentions: [] }));
    const text = JSON.stringify({ version: 3, deployment: { manifest: { time: 't' }, resources } }, null, 2);
    const { structure } = parseState(text);
    assert.ok(recordFinder(text, structure.resources).startOf(150, 0) !== undefined, 'record 150 can be found');
    const finder = recordFinder(text, structure.resources);
    assert.equal(finder.startOf(100, 0), undefined, 'record 100 does not begin with its urn');
    assert.equal(finder.startOf(150, 0), undefined, 'after the miss, nothing more is searched for');
  });
});
