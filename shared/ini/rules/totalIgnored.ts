/** `total-ignored`: a TOTAL that the Forgejo version in use (before 12.0.4) silently ignores. */
import * as l10n from '@vscode/l10n';
import { QUOTA_DEFAULT_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { plainBytesFix, totalSpan, writtenTotal } from './total';

/**
 * v11 modules/setting/quota.go maps TOTAL into an int64 with go-ini's non-strict MapTo: a value that
 * is not an integer is dropped without a word, and TOTAL stays -1 (unlimited).
 */
function check(context: AppIniContext): AppIniFinding[] {
  const { total, forgejo } = context;
  if (!total || forgejo?.totalParsing !== 'integer') return [];
  if (total.entry.value === '' || total.older !== undefined || !context.firstHeaders.has(QUOTA_DEFAULT_SECTION)) return [];
  const sized = total.newer.reason ? undefined : total.newer.bytes.toString();
  const message = sized
    ? l10n.t(
        'TOTAL = {0}: {1} (before 12.0.4) reads TOTAL as a plain integer and silently ignores this value, so the built-in limit stays -1 (unlimited). Write {2}.',
        writtenTotal(total),
        forgejo.label,
        sized,
      )
    : l10n.t(
        'TOTAL = {0}: {1} (before 12.0.4) reads TOTAL as a plain integer and silently ignores this value, so the built-in limit stays -1 (unlimited). Write a number of bytes, or -1.',
        writtenTotal(total),
        forgejo.label,
      );
  return [{ code: 'total-ignored', at: totalSpan(total), message, ...(sized ? { data: { plain: sized } } : {}) }];
}

export const totalIgnored: AppIniRule = {
  code: 'total-ignored',
  doc: 'The Forgejo version in use (the `quotaState.forgejoVersion` setting or the connected server) is before 12.0.4, which reads `TOTAL` as a plain integer, and `TOTAL` is not one (e.g. `2G`): that version silently ignores it, so the built-in limit stays −1 (unlimited).',
  check,
  fix: plainBytesFix,
};
