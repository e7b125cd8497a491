/** Where the state fixtures live, and the codes they must cover. */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { STATE_CODES as STATE_CODE_REGISTRY } from '../../shared/state/codes';

export const FIXTURES = resolve(__dirname, '..', 'fixtures', 'state');

/** Every state diagnostic code: the fixtures must cover them all. */
export const STATE_CODES = Object.keys(STATE_CODE_REGISTRY);

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.state.json'))
    .map((f) => f.replace(/\.state\.json$/, ''));
}
