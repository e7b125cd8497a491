/**
 * Quick-fix golden files: `test/fixtures/fixes/<name>.state.json` or `<name>.quota.jsonc` marks
 * each diagnostic with `// want "message" fix="title"` at the end of its line; the file must get
 * exactly those diagnostics, and applying the named fixes must give `<name>.fixed.<ext>` beside it.
 * `UPDATE_GOLDEN=1` writes the fixed files instead of comparing them.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Fix } from '../../shared/edits';
import { quotaFixesFor } from '../../shared/quota/services/codeActions';
import { fixesFor } from '../../shared/state/services/codeActions';
import { applyEdits, assertWantedDiagnostics, fixGoldenInputs, quotaDocument, readWants, stateDocument } from '../helpers/services';

describe('quick-fix golden files', () => {
  for (const { name, file, fixed, kind } of fixGoldenInputs()) {
    it(`${name}${kind.extension}: the wanted diagnostics, and the named fixes give the fixed file`, () => {
      const { text, wants } = readWants(readFileSync(file, 'utf8'));
      assert.ok(
        wants.some((w) => w.fix),
        'the golden file names at least one fix',
      );
      assertWantedDiagnostics(kind.analyse(text).diagnostics, wants);
      // One fix at a time, on the text the previous one produced, as a user clicks them.
      let result = text;
      const applied = new Set<string>();
      for (const want of wants) {
        if (!want.fix) continue;
        const analysis = kind.analyse(result);
        const diagnostic = analysis.diagnostics.find((d) => d.message.includes(want.message));
        // One fix can answer several diagnostics (a reorder): the later ones are gone once it is applied.
        if (!diagnostic && applied.has(want.fix)) continue;
        assert.ok(diagnostic, `the diagnostic "${want.message}" before applying "${want.fix}"`);
        const fixes: Fix[] = kind.extension === '.state.json' ? fixesFor(stateDocument(result).snapshot, diagnostic) : quotaFixesFor(quotaDocument(result), diagnostic);
        const fix = fixes.find((f) => f.title === want.fix);
        assert.ok(fix, `fix "${want.fix}" for line ${want.line + 1}; offered: ${fixes.map((f) => `"${f.title}"`).join(', ') || 'none'}`);
        result = applyEdits(result, fix.edits);
        applied.add(fix.title);
      }
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(fixed, result);
      assert.ok(existsSync(fixed), `${fixed} is missing (UPDATE_GOLDEN=1 writes it)`);
      assert.equal(result, readFileSync(fixed, 'utf8'));
    });
  }
});
