/**
 * The scan locator finds spans in valid JSON without a syntax tree. Whatever the
 * value and its layout, the span it gives for a path must hold exactly the value at that path,
 * and the key span exactly the quoted key, including strings full of brackets, quotes and
 * escapes that a bracket search must step over.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { pathKey, ScanLocator, type JsonPath } from '../../shared/state/model/locate';

/** Every path of `value`, the root included. */
function pathsOf(value: unknown, path: JsonPath = []): JsonPath[] {
  const paths = [path];
  if (Array.isArray(value)) value.forEach((item, i) => paths.push(...pathsOf(item, [...path, i])));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]));
  return paths;
}

function valueAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((v, segment) => (v as Record<string | number, unknown>)[segment], value);
}

// Strings a bracket search could trip on: brackets, quotes, backslashes, escaped quotes.
const tricky = fc.stringMatching(/^[a-z{}[\]"\\ ]{0,8}$/);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  // Duplicate keys cannot come from JSON.stringify; keys avoid __proto__, which it treats specially.
  object: fc.dictionary(
    tricky.filter((k) => k !== '__proto__'),
    tie('value'),
    { maxKeys: 4 },
  ),
})).value;

describe('state: locating paths in valid JSON without a tree', () => {
  it('gives, for every path, a span holding exactly the value at that path', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const paths = pathsOf(value);
        const found = new ScanLocator(text).locateAll(paths);
        for (const path of paths) {
          const node = found.get(pathKey(path));
          assert.ok(node, `path ${pathKey(path)} located in ${text}`);
          const slice = text.slice(node.value.offset, node.value.offset + node.value.length);
          assert.equal(JSON.stringify(JSON.parse(slice)), JSON.stringify(valueAt(value, path)), `span of ${pathKey(path)}`);
          const last = path[path.length - 1];
          if (typeof last === 'string') assert.equal(text.slice(node.key!.offset, node.key!.offset + node.key!.length), JSON.stringify(last));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('stops early only where the spans stay the same: any sample of paths, with and without stopWhenFound', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(undefined, 2), fc.array(fc.nat(), { maxLength: 3 }), (value, indent, picks) => {
        const text = JSON.stringify(value, null, indent);
        const all = pathsOf(value);
        const paths = picks.map((pick) => all[pick % all.length]);
        const locator = new ScanLocator(text);
        assert.deepEqual(locator.locateAll(paths, { stopWhenFound: true }), locator.locateAll(paths));
      }),
      { numRuns: 500 },
    );
  });

  it('stops early only where the spans stay the same, also when keys repeat (JSON.parse keeps the later copy)', () => {
    fc.assert(
      fc.property(json, fc.array(fc.nat(), { minLength: 1, maxLength: 3 }), fc.infiniteStream(fc.boolean()), (value, picks, repeats) => {
        // Every object inside an array may first carry a decoy copy of one of its keys, which JSON.parse
        // overwrites. (Above the outermost array a repeated key is stopWhenFound's documented exception.)
        const withRepeats = (item: unknown, insideArray: boolean): string => {
          if (Array.isArray(item)) return `[${item.map((element) => withRepeats(element, true)).join(',')}]`;
          if (item === null || typeof item !== 'object') return JSON.stringify(item);
          const members = Object.entries(item).map(([key, member]) => `${JSON.stringify(key)}:${withRepeats(member, insideArray)}`);
          const keys = Object.keys(item);
          if (insideArray && keys.length > 0 && repeats.next().value) members.unshift(`${JSON.stringify(keys[keys.length - 1])}:"decoy"`);
          return `{${members.join(',')}}`;
        };
        const text = withRepeats(value, false);
        const all = pathsOf(JSON.parse(text));
        const paths = picks.map((pick) => all[pick % all.length]);
        const locator = new ScanLocator(text);
        assert.deepEqual(locator.locateAll(paths, { stopWhenFound: true }), locator.locateAll(paths));
      }),
      { numRuns: 500 },
    );
  });

  it('with stopWhenFound, a key repeated in an early record does not end the scan before a later record is read', () => {
    const text = '{"resources": [{"parent": "a", "parent": "b"}, {"urn": "c", "deletedWith": "d"}]}';
    const paths = [
      ['resources', 0, 'parent'],
      ['resources', 1, 'deletedWith'],
    ];
    const found = new ScanLocator(text).locateAll(paths, { stopWhenFound: true });
    assert.deepEqual([...found.keys()].sort(), paths.map(pathKey).sort());
    assert.equal(text.slice(found.get(pathKey(paths[0]))!.value.offset).slice(0, 3), '"b"');
  });

  it('with stopWhenFound, reads no further than the element of the outermost array that holds the last node asked for', () => {
    const record = '{"urn": "a", "id": "x", "id": "y"}';
    const text = `{"resources": [${record}, {"urn": "b"}], "resources": [{"id": "z"}]}`;
    const idAt = (found: Map<string, { value: { offset: number } }>) => text.slice(found.get(pathKey(['resources', 0, 'id']))!.value.offset).slice(0, 3);
    // Inside the element, a repeated key still resolves to its later copy, as JSON.parse reads it.
    assert.equal(idAt(new ScanLocator(text).locateAll([['resources', 0, 'id']], { stopWhenFound: true })), '"y"');
    // The repeated outer key is the documented exception: only a scan to the end sees its later copy.
    assert.equal(idAt(new ScanLocator(text).locateAll([['resources', 0, 'id']])), '"z"');
  });

  it('gives up at the end of unterminated text instead of scanning forever', () => {
    // Never valid JSON (the scan only serves text JSON.parse accepted), but it must not hang.
    for (const text of ['{"a": [' + '"x{", '.repeat(2000), '{"a": [' + '"open '.repeat(2000), '{"a": {"b": [1, ']) {
      const found = new ScanLocator(text).locateAll([['a'], ['c']]);
      assert.equal(found.get(pathKey(['a']))?.value.offset, 6);
      assert.equal(found.has(pathKey(['c'])), false);
    }
  });
});
