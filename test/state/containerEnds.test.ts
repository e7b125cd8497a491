/**
 * The bracket finder trusts a bracket at a line's start or end to be outside strings and reads
 * strings only around the others: whatever the whitespace between tokens (none, spaces, tabs, line
 * breaks of either kind), it must end every container where a character-by-character reading does.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ContainerEnds } from '../../shared/json/containerEnds';

// Strings a bracket search could trip on: brackets, quotes, backslashes, escaped line breaks.
const tricky = fc.stringMatching(/^[a-z{}[\]"\\ \n]{0,8}$/);
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
})).value;

/** `value` as JSON with whitespace from `spaces` between every two tokens. */
function withWhitespace(value: unknown, spaces: () => string): string {
  if (Array.isArray(value)) return `[${spaces()}${value.map((item) => withWhitespace(item, spaces)).join(`${spaces()},${spaces()}`)}${spaces()}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const members = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}${spaces()}:${spaces()}${withWhitespace(item, spaces)}`);
  return `{${spaces()}${members.join(`${spaces()},${spaces()}`)}${spaces()}}`;
}

/** Each container's start and end, read character by character. */
function containers(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    if (c === '{' || c === '[') open.push(i);
    if (c === '}' || c === ']') found.push([open.pop()!, i + 1]);
  }
  return found.sort((a, b) => a[0] - b[0]);
}

describe('json: container ends found from bracket to bracket', () => {
  it('ends every container where a character-by-character reading does, fresh or in one forward pass', () => {
    fc.assert(
      fc.property(json, fc.infiniteStream(fc.constantFrom('', '', ' ', '    ', '\t', '\n', '\n  ', '\r\n\t')), (value, stream) => {
        const text = withWhitespace(value, () => stream.next().value);
        JSON.parse(text);
        const expected = containers(text);
        for (const [start, end] of expected) assert.equal(new ContainerEnds(text).endOf(start), end, `container at ${start} of ${JSON.stringify(text)}`);
        // One pass asked, as a scan does, for containers that each start after the previous one's end.
        const pass = new ContainerEnds(text);
        let read = 0;
        for (const [start, end] of expected) {
          if (start < read) continue;
          assert.equal(pass.endOf(start), end, `container at ${start} of ${JSON.stringify(text)}, in one pass`);
          read = end;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
