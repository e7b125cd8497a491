/**
 * The line index scans lazily, as far as the offsets asked about: whatever the order of the
 * questions, every answer equals the one from splitting the whole text into lines.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Position } from '../../../shared/diagnostics';
import { LineIndex } from '../../../shared/text/lineIndex';

function referencePosition(text: string, offset: number): Position {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length - 1;
  return { line, character: before.length - (before.lastIndexOf('\n') + 1) };
}

function referenceOffset(text: string, position: Position): number {
  const lines = text.split('\n');
  if (position.line < 0) return 0;
  if (position.line >= lines.length) return text.length;
  const start = lines.slice(0, position.line).reduce((sum, line) => sum + line.length + 1, 0);
  return Math.min(start + Math.max(0, position.character), start + lines[position.line].length + (position.line + 1 < lines.length ? 1 : 0));
}

const question = fc.oneof(
  fc.record({ offset: fc.integer({ min: -2, max: 3_000_000 }) }),
  fc.record({ line: fc.integer({ min: -1, max: 70_000 }), character: fc.nat(80) }),
  fc.constant('count' as const),
);

describe('line index: lazy scanning', () => {
  it('answers positions, offsets and the line count in any order as the whole text split into lines does', () => {
    // Texts past the scan's one-megabyte step, so questions land in scanned and unscanned parts.
    const body = fc.array(fc.stringMatching(/^[a-z\r]{0,60}$/), { minLength: 1, maxLength: 80 });
    fc.assert(
      fc.property(body, fc.integer({ min: 1, max: 700 }), fc.array(question, { minLength: 1, maxLength: 12 }), (lines, repeat, questions) => {
        const text = Array.from({ length: repeat }, () => lines.join('\n')).join('\n');
        const index = new LineIndex(text);
        for (const q of questions) {
          if (q === 'count') assert.equal(index.lineCount, text.split('\n').length);
          else if ('offset' in q) assert.deepEqual(index.positionAt(q.offset), referencePosition(text, q.offset), `offset ${q.offset}`);
          else assert.equal(index.offsetAt(q), referenceOffset(text, q), `line ${q.line}`);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('line index: room for the lines, predicted from the text’s start', () => {
  it('indexes every line when the start predicts too few (a long first line) or too many (a long last line)', () => {
    const shortLines = Array.from({ length: 40_000 }, (_, i) => `line ${i}`).join('\n');
    const longLine = 'x'.repeat(200_000);
    for (const text of [`${longLine}\n${shortLines}`, `${shortLines}\n${longLine}`, '', 'one line', '\n\n']) {
      const index = new LineIndex(text);
      assert.equal(index.lineCount, text.split('\n').length);
      assert.deepEqual(index.positionAt(text.length), referencePosition(text, text.length));
      assert.equal(index.offsetAt({ line: index.lineCount - 1, character: 0 }), text.lastIndexOf('\n') + 1);
    }
  });
});
