/**
 * The validators the sources use are ajv standalone code generated at build time. They must report
 * exactly the errors ajv reports when it compiles the same schemas at run time, on every fixture
 * (the real Pulumi files included) and on every resource record inside them.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { parse as parseJsonc } from 'jsonc-parser';
import { validateRecordAt, validateShape } from '../../shared/state/passes/schemas';
import { config as precompiledQuotaValidator } from '../../shared/validators/quotaConfigValidator';
import type { StateSchemaMode } from '../../shared/state/codes';

type Generator = {
  stateAjv(mode: StateSchemaMode): { ajv: { getSchema(ref: string): ValidateFunction | undefined }; refs: Record<string, string> };
  quotaAjv(): { ajv: { getSchema(ref: string): ValidateFunction | undefined }; refs: Record<string, string> };
};

const fixtures = join(__dirname, '..', 'fixtures');
const examples = join(__dirname, '..', '..', 'examples');
const SHAPES = ['deployment', 'export', 'checkpoint', 'legacyCheckpoint'] as const;
const MODES: StateSchemaMode[] = ['pulumi', 'seed-v3'];

function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, accept);
    return accept(entry.name) ? [path] : [];
  });
}

/** Every JSON value a state validator may meet: the document, and each record under any resources list. */
function stateInputs(): { name: string; root: unknown }[] {
  const paths = [...filesUnder(join(fixtures, 'state'), (name) => name.endsWith('.json')), ...filesUnder(examples, (name) => name.endsWith('.state.json'))];
  return paths.flatMap((path) => {
    let root: unknown;
    try {
      root = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      return [];
    }
    return [{ name: path, root }];
  });
}

function resourceLists(value: unknown, pointer = ''): { pointer: string; records: unknown[] }[] {
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => resourceLists(item, `${pointer}/${index}`));
  return Object.entries(value).flatMap(([key, child]) =>
    key === 'resources' && Array.isArray(child) ? [{ pointer: `${pointer}/${key}`, records: child }] : resourceLists(child, `${pointer}/${key}`),
  );
}

const errorsOf = (validate: ValidateFunction, value: unknown) => (validate(value) ? [] : [...(validate.errors ?? [])]);

describe('precompiled validators report what runtime-compiled ajv reports', () => {
  let generator: Generator;
  before(async () => {
    // By URL: the generator is a plain build script without type declarations.
    generator = (await import(pathToFileURL(join(__dirname, '..', '..', 'scripts', 'generate-validators.mjs')).href)) as Generator;
  });

  for (const mode of MODES) {
    it(`state schemas, mode ${mode}: every shape on every fixture, every record`, () => {
      const { ajv, refs } = generator.stateAjv(mode);
      const inputs = stateInputs();
      assert.ok(
        inputs.some((input) => input.name.includes(`${join('state', 'real')}`)),
        'the real Pulumi fixtures are read',
      );
      let compared = 0;
      let withErrors = 0;
      for (const { name, root } of inputs) {
        for (const shape of SHAPES) {
          const expected = errorsOf(ajv.getSchema(refs[shape])!, root);
          assert.deepEqual(validateShape(shape, root, mode), expected, `${name} as ${shape}`);
          compared++;
          if (expected.length > 0) withErrors++;
        }
        for (const { pointer, records } of resourceLists(root)) {
          records.forEach((record, index) => {
            const expected = errorsOf(ajv.getSchema(refs.record)!, record).map((error) => ({ ...error, instancePath: `${pointer}/${index}${error.instancePath}` }));
            assert.deepEqual(validateRecordAt(record, `${pointer}/${index}`, mode), expected, `${name} record ${pointer}/${index}`);
            compared++;
            if (expected.length > 0) withErrors++;
          });
        }
      }
      // Both valid and invalid inputs were compared: identical error lists are not just two empty lists.
      assert.ok(withErrors > 10 && compared - withErrors > 10, `${withErrors} of ${compared} comparisons had errors`);
    });
  }

  it('quota config schema: every quota fixture', () => {
    const { ajv, refs } = generator.quotaAjv();
    const runtime = ajv.getSchema(refs.config)!;
    const isQuota = (name: string) => /\.quota\.jsonc?$/.test(name);
    const inputs = [...filesUnder(fixtures, isQuota), ...filesUnder(examples, isQuota)].map((path) => ({ name: path, root: parseJsonc(readFileSync(path, 'utf8')) }));
    assert.ok(inputs.length > 0);
    // Variants with errors of every kind the schema reports, so that errors are compared too.
    const variants = inputs.flatMap(({ name, root }) => [
      { name, root },
      { name: `${name} (rules not an array)`, root: { ...(root as object), rules: { a: 1 } } },
      { name: `${name} (bad rule)`, root: { ...(root as object), rules: [{ name: 3, limit: 'x', subjects: ['nope'] }, {}] } },
      { name: `${name} (unknown property)`, root: { ...(root as object), surprise: true } },
    ]);
    let withErrors = 0;
    for (const { name, root } of variants) {
      const expected = errorsOf(runtime, root);
      assert.deepEqual(errorsOf(precompiledQuotaValidator, root), expected, name);
      if (expected.length > 0) withErrors++;
    }
    assert.ok(withErrors >= inputs.length * 2, `${withErrors} variants had errors`);
  });
});
