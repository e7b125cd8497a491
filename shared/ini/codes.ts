/** Every diagnostic code of Forgejo `app.ini` files (only the quota sections are checked), with its default severity; each code's module in rules/ says what it means. */
import { defineCodes } from '../codes';

export const APP_INI_CODES = defineCodes([
  { code: 'ini-syntax', severity: 'error' },
  { code: 'unknown-key', severity: 'warning' },
  { code: 'misplaced-key', severity: 'warning' },
  { code: 'misspelt-section', severity: 'warning' },
  { code: 'invalid-boolean', severity: 'error' },
  { code: 'quota-disabled', severity: 'information' },
  { code: 'total-older-servers', severity: 'warning' },
  {
    code: 'total-ignored',
    severity: 'error',
  },
  { code: 'invalid-total', severity: 'error' },
  { code: 'unknown-default-group', severity: 'warning' },
  { code: 'value-cut-by-comment', severity: 'warning' },
  { code: 'continuation-ignored', severity: 'warning' },
  { code: 'duplicate-key', severity: 'warning' },
  { code: 'duplicate-section', severity: 'information' },
]);

export type AppIniCode = keyof typeof APP_INI_CODES;
