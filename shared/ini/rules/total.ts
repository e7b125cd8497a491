/**
 * What the TOTAL rules (total-older-servers, total-ignored, invalid-total) share: how TOTAL is
 * quoted and located in their messages, how older servers read it, and the plain-bytes fix.
 */
import * as l10n from '@vscode/l10n';
import type { Span } from '../../diagnostics';
import type { Fix, FixRequest } from '../../edits';
import type { TotalReading } from '../quotaSettings';
import type { AppIniContext } from './context';

/** Where a TOTAL diagnostic goes: the value, or the key when the value is empty. */
export const totalSpan = (total: TotalReading): Span => (total.entry.valueSpan.length ? total.entry.valueSpan : total.entry.keySpan);

/** TOTAL's value as messages quote it. */
export const writtenTotal = (total: TotalReading): string => JSON.stringify(total.entry.value);

/** What older servers make of the value: "read it as 1000 bytes". */
export function olderServersReading(total: TotalReading): string {
  const { older } = total;
  if (older === undefined) return l10n.t('ignore it (unlimited)');
  if (older < 0n && older !== -1n) return l10n.t('read it as {0}, a limit no one can meet', String(older));
  return l10n.t('read it as {0} bytes', String(older));
}

/** What a TOTAL diagnostic with the plain-bytes fix keeps in `data`: the value every version reads alike. */
interface PlainBytesData {
  plain?: string;
}

/** Writes the TOTAL Forgejo reads as the plain number of bytes in the diagnostic's `data`. */
export function plainBytesFix(context: AppIniContext, request: FixRequest): Fix[] {
  const { plain } = request.data as PlainBytesData;
  if (plain === undefined || !context.total) return [];
  return [{ title: l10n.t('Write TOTAL as plain bytes ({0})', plain), edits: [{ ...context.total.entry.valueSpan, newText: plain }], preferred: true }];
}
