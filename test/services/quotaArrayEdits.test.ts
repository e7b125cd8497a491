/**
 * The quota fixes that add or remove a whole rule or group ("Create rule/group", "Remove unused
 * rule") are minimal edits, whatever the layout: one-line or multi-line arrays and items,
 * comments after items, a trailing comma, CRLF. The result parses, holds exactly the item added or removed, and
 * every other item keeps its text, comments included.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parse, type ParseError } from 'jsonc-parser';
import { quotaFixesFor } from '../../shared/quota/services/codeActions';
import { applyEdits, quotaDocument } from '../helpers/services';

interface Layout {
  multiLineArray: boolean;
  multiLineItems: boolean;
  /** One-line items as `{"name":"x"}` rather than `{ "name": "x" }`. */
  compactItems: boolean;
  /** A comma after the last item, which JSONC allows. */
  trailingComma: boolean;
  comments: boolean;
  crlf: boolean;
  indent: string;
}

const layout = fc.record({
  multiLineArray: fc.boolean(),
  multiLineItems: fc.boolean(),
  compactItems: fc.boolean(),
  trailingComma: fc.boolean(),
  comments: fc.boolean(),
  crlf: fc.boolean(),
  indent: fc.constantFrom('  ', '    ', '\t'),
});

/** Items written in `layout`, each with its comment when there are comments (which need a line of their own to end). */
function writeArray(items: object[], style: Layout, level: number): { text: string; itemTexts: string[] } {
  const eol = style.crlf ? '\r\n' : '\n';
  const pad = style.indent.repeat(level + 1);
  const itemTexts = items.map((item) =>
    style.multiLineItems
      ? JSON.stringify(item, null, style.indent).replace(/\n/g, eol + pad)
      : style.compactItems
        ? JSON.stringify(item)
        : JSON.stringify(item).replace(/,"/g, ', "').replace(/":/g, '": ').replace(/^\{/, '{ ').replace(/\}$/, ' }'),
  );
  const trailing = style.trailingComma ? ',' : '';
  if (!style.multiLineArray) return { text: `[${itemTexts.join(', ')}${trailing}]`, itemTexts };
  const lines = itemTexts.map((item, i) => `${pad}${item}${i < items.length - 1 ? ',' : trailing}${style.comments ? ` // item ${i}` : ''}`);
  return { text: `[${eol}${lines.join(eol)}${eol}${style.indent.repeat(level)}]`, itemTexts };
}

function parsed(text: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  assert.deepEqual(errors, [], `the fixed text parses:\n${text}`);
  return value as Record<string, unknown>;
}

function applyFix(text: string, code: string, title: string): string {
  const analysis = quotaDocument(text);
  const diagnostic = analysis.diagnostics.find((d) => d.code === code);
  assert.ok(diagnostic, `a ${code} diagnostic in:\n${text}`);
  const fix = quotaFixesFor(analysis, diagnostic).find((f) => f.title === title);
  assert.ok(fix, `the fix "${title}"`);
  return applyEdits(text, fix.edits);
}

describe('quota fixes that add or remove a rule or group: minimal edits in any layout', () => {
  it('"Create rule" appends the rule; the other rules keep their text and comments', () => {
    fc.assert(
      fc.property(layout, fc.integer({ min: 1, max: 3 }), (style, count) => {
        const rules = Array.from({ length: count }, (_, i) => ({ name: `r${i}`, limit: i, subjects: ['size:all'] }));
        const eol = style.crlf ? '\r\n' : '\n';
        const array = writeArray(rules, style, 1);
        const text = `{${eol}${style.indent}"rules": ${array.text},${eol}${style.indent}"groups": [{ "name": "g", "rules": ["r0", "missing"] }]${eol}}`;
        const after = applyFix(text, 'unknown-rule', 'Create rule "missing"');
        assert.deepEqual((parsed(after).rules as unknown[]).slice(-1), [{ name: 'missing', limit: -1, subjects: ['size:all'] }]);
        assert.deepEqual((parsed(after).rules as unknown[]).slice(0, -1), rules);
        for (const item of array.itemTexts) assert.ok(after.includes(item), `kept: ${item}`);
        if (style.comments && style.multiLineArray) for (let i = 0; i < count; i++) assert.ok(after.includes(`// item ${i}`));
        if (style.crlf) assert.doesNotMatch(after.replace(/\r\n/g, ''), /\n/, 'no bare line feed in a CRLF file');
      }),
      { numRuns: 200 },
    );
  });

  it('"Remove unused rule" takes out the rule (its own comment with it); the others keep their text and comments', () => {
    fc.assert(
      fc.property(layout, fc.integer({ min: 1, max: 3 }), fc.nat(), (style, count, pick) => {
        const rules = Array.from({ length: count }, (_, i) => ({ name: `r${i}`, limit: i, subjects: ['size:all'] }));
        const spare = pick % count;
        const eol = style.crlf ? '\r\n' : '\n';
        const array = writeArray(rules, style, 1);
        const listed = rules.filter((_, i) => i !== spare).map((r) => `"${r.name}"`);
        const text = `{${eol}${style.indent}"rules": ${array.text},${eol}${style.indent}"groups": [{ "name": "g", "rules": [${listed.join(', ')}] }]${eol}}`;
        const after = applyFix(text, 'unused-rule', `Remove unused rule "r${spare}"`);
        assert.deepEqual(
          parsed(after).rules,
          rules.filter((_, i) => i !== spare),
        );
        array.itemTexts.forEach((item, i) => assert.equal(after.includes(item), i !== spare, `item ${i}`));
        if (style.comments && style.multiLineArray) {
          for (let i = 0; i < count; i++) assert.equal(after.includes(`// item ${i}`), i !== spare, `comment ${i}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('"Create group" appends the group, written like the group before it', () => {
    fc.assert(
      fc.property(layout, (style) => {
        const eol = style.crlf ? '\r\n' : '\n';
        const array = writeArray([{ name: 'free', rules: [] }], style, 1);
        const text = `{${eol}${style.indent}"groups": ${array.text},${eol}${style.indent}"defaultGroups": ["paid"]${eol}}`;
        const after = applyFix(text, 'unknown-group', 'Create group "paid"');
        assert.deepEqual(parsed(after).groups, [
          { name: 'free', rules: [] },
          { name: 'paid', rules: [] },
        ]);
        assert.ok(after.includes(array.itemTexts[0]));
        // The new group is on one line exactly when the group before it is, spaced as it is.
        assert.equal(after.includes('{ "name": "paid", "rules": [] }'), !style.multiLineItems && !style.compactItems);
        assert.equal(after.includes('{"name":"paid","rules":[]}'), !style.multiLineItems && style.compactItems);
        if (style.multiLineItems) assert.ok(after.includes(`{${style.crlf ? '\r\n' : '\n'}${style.indent.repeat(3)}"name": "paid",`), after);
      }),
      { numRuns: 100 },
    );
  });
});
