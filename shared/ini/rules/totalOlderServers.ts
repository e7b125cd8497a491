/** `total-older-servers`: a TOTAL that servers before 12.0.4 ignore or read differently, checked when the Forgejo version is not known. */
import * as l10n from '@vscode/l10n';
import { describeSize } from '../../quota';
import { QUOTA_DEFAULT_SECTION } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { olderServersReading, plainBytesFix, totalSpan, writtenTotal } from './total';

function check(context: AppIniContext): AppIniFinding[] {
  const { total } = context;
  // A known version is judged by its own reading alone (total-ignored); a value newer servers reject is invalid-total's.
  if (!total || context.forgejo || total.newer.reason || total.entry.value === '' || !context.firstHeaders.has(QUOTA_DEFAULT_SECTION)) return [];
  if (total.older !== undefined && total.older === total.newer.bytes) return [];
  const plain = total.newer.bytes.toString();
  const message = l10n.t(
    'TOTAL = {0}: newer Forgejo servers read {1}, but older servers (which read TOTAL as a plain integer) {2}. Write {3} to be read the same by every version.',
    writtenTotal(total),
    describeSize(Number(total.newer.bytes)),
    olderServersReading(total),
    plain,
  );
  return [{ code: 'total-older-servers', at: totalSpan(total), message, data: { plain } }];
}

export const totalOlderServers: AppIniRule = {
  code: 'total-older-servers',
  doc: 'A `TOTAL` such as `10G` that servers before 12.0.4 (which read a plain integer) ignore, or such as `010` that they read as octal, while newer ones read a byte size; reported when the Forgejo version in use is not known.',
  check,
  fix: plainBytesFix,
};
