/**
 * UrnMap hashes only the end of its keys, so keys that share that end (every copy of a urn in
 * another stack, say) share a bucket. Whatever the keys, it must answer exactly as a Map does.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { UrnMap } from '../../shared/state/model/urnMap';

// Few distinct pieces, so keys often collide in length, in their last 16 characters, or entirely.
const piece = fc.constantFrom('', 'a', 'b', '::', 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::', 'x'.repeat(20), '-1', '-2', 'é', '\u{1F600}');
const key = fc.array(piece, { maxLength: 4 }).map((pieces) => pieces.join(''));
const operation = fc.oneof(fc.record({ set: key, value: fc.integer() }), fc.record({ get: key }), fc.record({ clear: fc.constant(true) }));

describe('state: UrnMap answers as a Map', () => {
  it('for any sequence of sets, gets and clears: the same values, size and order', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const expected = new Map<string, number>();
        const actual = new UrnMap<number>();
        for (const op of operations) {
          if ('set' in op) {
            expected.set(op.set, op.value);
            assert.equal(actual.set(op.set, op.value), actual);
          } else if ('get' in op) {
            assert.equal(actual.get(op.get), expected.get(op.get), `get(${JSON.stringify(op.get)})`);
            assert.equal(actual.has(op.get), expected.has(op.get), `has(${JSON.stringify(op.get)})`);
          } else {
            expected.clear();
            actual.clear();
          }
          assert.equal(actual.size, expected.size);
        }
        assert.deepEqual([...actual], [...expected]);
        assert.deepEqual([...actual.keys()], [...expected.keys()]);
        assert.deepEqual([...actual.values()], [...expected.values()]);
        const visited: Array<[string, number]> = [];
        actual.forEach((value, k, map) => {
          assert.equal(map, actual);
          visited.push([k, value]);
        });
        assert.deepEqual(visited, [...expected.entries()]);
      }),
      { numRuns: 500 },
    );
  });

  it('tells apart keys of one length that end alike, as the copies of a urn in two stacks do', () => {
    const map = new UrnMap<string>();
    const dev = 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::logs-bucket-name';
    const prd = 'urn:pulumi:prd::app::aws:s3/bucket:Bucket::logs-bucket-name';
    map.set(dev, 'dev').set(prd, 'prd');
    assert.equal(map.get(dev), 'dev');
    assert.equal(map.get(prd), 'prd');
    // A fresh string of the same text, as JSON.parse gives for every reference.
    assert.equal(map.get(JSON.parse(JSON.stringify(prd)) as string), 'prd');
    assert.equal(map.get(prd.replace('prd', 'qa_')), undefined);
    assert.equal(map.size, 2);
  });
});
