/**
 * The quota schema as editors see it: the same properties, descriptions and value suggestions,
 * but no constraint that could fail. VS Code's JSON features use it (via `jsonValidation`) to
 * complete keys and show their documentation, while every problem is reported once, by the
 * language server, with a code and a fix. `schemas/quota-config.editor.schema.json` is this
 * function's output; a test keeps the two equal.
 */
const EDITOR_SCHEMA_ID = 'https://quota-state.dev/schemas/quota-config.editor.schema.json';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords that only constrain (they add nothing to completion or hovers). */
const CONSTRAINTS = new Set([
  'required',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'format',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
]);

/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

export function editorSchema(strict: Record<string, unknown>): Record<string, unknown> {
  const result = relax(strict as Json) as Record<string, Json>;
  return {
    ...result,
    $id: EDITOR_SCHEMA_ID,
    description: `${String(strict.description ?? '')} (Editor copy without constraints: the Quota & State language server reports problems.)`.trim(),
  };
}

function relax(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(relax);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, Json> = {};
  const examples: Json[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (CONSTRAINTS.has(key)) continue;
    if (key === 'type') {
      // The type only decides what completing a property inserts; a snippet keeps that without a check.
      const types = Array.isArray(value) ? value : [value];
      if (!('defaultSnippets' in schema) && types.length === 1 && (types[0] === 'object' || types[0] === 'array')) {
        out.defaultSnippets = [{ body: types[0] === 'object' ? {} : [] }];
      }
      continue;
    }
    if (key === 'enum' && Array.isArray(value)) {
      examples.push(...value);
      continue;
    }
    if (key === 'const') {
      examples.push(value);
      continue;
    }
    if (key === 'additionalProperties' || key === 'unevaluatedProperties' || key === 'additionalItems') {
      if (typeof value === 'object' && value !== null) out[key] = relax(value);
      continue;
    }
    // "Exactly one" fails when a relaxed value matches several alternatives; "any" never fails.
    if (key === 'oneOf') {
      out.anyOf = relax(value);
      continue;
    }
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, relax(sub)]));
      continue;
    }
    out[key] = key === 'examples' || key === 'default' || key === 'defaultSnippets' ? value : relax(value);
  }
  if (examples.length) out.examples = [...((out.examples as Json[] | undefined) ?? []), ...examples];
  return out;
}
