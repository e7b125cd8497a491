/** Where the state fixtures live, and the codes they must cover. */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';

export const FIXTURES = resolve(__dirname, '..', 'fixtures', 'state');

/** Every code of the product.md §5 table. */
export const STATE_CODES = [
  'syntax',
  'schema',
  'unknown-property',
  'newer-engine-property',
  'unsupported-version',
  'missing-reference',
  'forward-reference',
  'dependency-cycle',
  'self-reference',
  'duplicate-urn',
  'invalid-provider-reference',
  'unknown-provider',
  'missing-type',
  'component-with-id',
  'magic-mismatch',
  'foreign-stack',
  'malformed-property-value',
  'duplicate-alias',
  'parent-urn-mismatch',
  'invalid-urn',
];

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.state.json'))
    .map((f) => f.replace(/\.state\.json$/, ''));
}
