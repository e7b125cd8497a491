/** Every diagnostic code of Forgejo `app.ini` files (only the quota sections are checked), with its default severity and meaning. */
import { defineCodes } from '../codes';

export const APP_INI_CODES = defineCodes([
  { code: 'ini-syntax', severity: 'error', description: 'A line go-ini cannot read: Forgejo refuses to load the whole file and does not start.' },
  { code: 'unknown-key', severity: 'warning', description: 'A key in [quota] or [quota.default] that Forgejo does not read (key names are case-sensitive).' },
  { code: 'misplaced-key', severity: 'warning', description: 'A quota key in the other quota section, where Forgejo does not read it (or reads it only by section inheritance).' },
  { code: 'misspelt-section', severity: 'warning', description: 'A section whose name is close to [quota] or [quota.default]: Forgejo ignores it (section names are case-sensitive).' },
  { code: 'invalid-boolean', severity: 'error', description: 'ENABLED is not a boolean go-ini accepts: Forgejo keeps quota disabled.' },
  { code: 'quota-disabled', severity: 'information', description: 'Quota is disabled: every quota API route answers 404 and nothing is enforced.' },
  { code: 'total-older-servers', severity: 'warning', description: 'A TOTAL that older Forgejo servers (plain integer) ignore or read differently from newer ones (byte sizes).' },
  {
    code: 'total-ignored',
    severity: 'error',
    description: 'A TOTAL that the Forgejo version in use (before 12.0.4, plain integers only) silently ignores, so the built-in limit stays -1 (unlimited).',
  },
  { code: 'invalid-total', severity: 'error', description: 'A TOTAL that newer Forgejo servers silently turn into -1 (unlimited): negative, too large or not a size.' },
  { code: 'unknown-default-group', severity: 'warning', description: 'DEFAULT_GROUPS names a group that does not exist: Forgejo silently skips it.' },
  { code: 'value-cut-by-comment', severity: 'warning', description: 'A ";" or "#" inside a value starts a comment: Forgejo reads only the text before it.' },
  { code: 'continuation-ignored', severity: 'warning', description: 'A value ending in a backslash: Forgejo does not join it with the next line.' },
  { code: 'duplicate-key', severity: 'warning', description: 'A key set twice in the same section: Forgejo reads only the last one.' },
  { code: 'duplicate-section', severity: 'information', description: 'A section header repeated: Forgejo merges both into one section.' },
]);

export type AppIniCode = keyof typeof APP_INI_CODES;
