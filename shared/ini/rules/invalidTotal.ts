/** `invalid-total`: a TOTAL that servers from 12.0.4 on silently turn into -1 (unlimited). */
import * as l10n from '@vscode/l10n';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { olderServersReading, totalSpan, writtenTotal } from './total';

function check(context: AppIniContext): AppIniFinding[] {
  const { total, forgejo } = context;
  // A version that reads a plain integer never sees the byte-size reading (total-ignored is its rule).
  if (!total || !total.newer.reason || forgejo?.totalParsing === 'integer') return [];
  const message = forgejo
    ? l10n.t('TOTAL = {0}: {1} reads it as -1 (unlimited) because {2}. Write a number of bytes, a size such as 10G, or -1.', writtenTotal(total), forgejo.label, total.newer.reason)
    : l10n.t(
        'TOTAL = {0}: newer Forgejo servers read it as -1 (unlimited) because {1}; older servers {2}. Write a number of bytes, a size such as 10G, or -1.',
        writtenTotal(total),
        total.newer.reason,
        olderServersReading(total),
      );
  return [{ code: 'invalid-total', at: totalSpan(total), message }];
}

export const invalidTotal: AppIniRule = {
  code: 'invalid-total',
  doc: 'A `TOTAL` that servers from 12.0.4 on silently turn into −1 (unlimited): negative (other than `-1`), over 2⁶³−1 bytes, or not a size.',
  check,
};
