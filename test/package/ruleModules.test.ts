/**
 * Every diagnostic code has its module and its spec: `shared/<kind>/rules/<codeInCamelCase>.ts`
 * exports the kind's rule for the code (listed in `rules/index.ts` in the registry's order), and
 * `<codeInCamelCase>.test.ts` beside it describes that code with `describeRule`.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { moduleNameOf } from '../../shared/diagnosticRule';
import { APP_INI_CODES } from '../../shared/ini/codes';
import { APP_INI_RULES } from '../../shared/ini/rules';
import { QUOTA_CODES } from '../../shared/quota/codes';
import { QUOTA_DIAGNOSTIC_RULES } from '../../shared/quota/rules';
import { STATE_CODES } from '../../shared/state/codes';
import { STATE_RULES } from '../../shared/state/rules';

interface RuleKind {
  label: string;
  directory: string;
  registry: Readonly<Record<string, unknown>>;
  rules: ReadonlyArray<{ code: string; doc: string; check: unknown }>;
}

const KINDS: RuleKind[] = [
  { label: 'state', directory: 'shared/state/rules', registry: STATE_CODES, rules: STATE_RULES },
  { label: 'quota', directory: 'shared/quota/rules', registry: QUOTA_CODES, rules: QUOTA_DIAGNOSTIC_RULES },
  { label: 'app.ini', directory: 'shared/ini/rules', registry: APP_INI_CODES, rules: APP_INI_RULES },
];

const root = join(__dirname, '..', '..');

describe('one module and one spec per diagnostic code', () => {
  for (const kind of KINDS) {
    describe(kind.label, () => {
      it('lists one rule per registry code, in the registry order', () => {
        assert.deepEqual(
          kind.rules.map((rule) => rule.code),
          Object.keys(kind.registry),
        );
      });
      for (const code of Object.keys(kind.registry)) {
        it(`${code}: its module exports the listed rule, with one sentence of documentation, and its spec describes it`, () => {
          const file = join(root, kind.directory, `${moduleNameOf(code)}.ts`);
          assert.ok(existsSync(file), `${kind.directory}/${moduleNameOf(code)}.ts`);
          // eslint-disable-next-line @typescript-eslint/no-require-imports
          const exported = Object.values(require(file) as Record<string, unknown>);
          const listed = kind.rules.find((rule) => rule.code === code);
          assert.ok(listed && exported.includes(listed), `the module exports the rule rules/index.ts lists for ${code}`);
          assert.match(listed.doc, /^[^\n]+\.$/, 'one line ending in a full stop');
          const spec = join(root, kind.directory, `${moduleNameOf(code)}.test.ts`);
          assert.ok(existsSync(spec), `${kind.directory}/${moduleNameOf(code)}.test.ts`);
          assert.ok(readFileSync(spec, 'utf8').includes(`'${code}'`), `the spec describes '${code}'`);
        });
      }
    });
  }

  it('shared/state/rules/ holds only the code modules, their specs, the list and the rule contract (shared passes live in passes/)', () => {
    const modules = new Set(Object.keys(STATE_CODES).map(moduleNameOf));
    const stray = readdirSync(join(root, 'shared/state/rules')).filter((file) => {
      const name = file.replace(/(\.test)?\.ts$/, '');
      return !modules.has(name) && file !== 'index.ts' && file !== 'stateRule.ts';
    });
    assert.deepEqual(stray, []);
  });
});
