/** A limit of 0, or negative other than -1, is exceeded even at zero usage: the rule (or the built-in group) never stands. */
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck, QuotaFinding } from './finding';

const neverStands = (limit: number | bigint) => limit === 0 || limit < -1;

export const neverStandingLimits: QuotaCheck = (reading) => {
  const findings: QuotaFinding[] = [];
  for (const { name, limit, limitNode } of reading.rules) {
    if (limit === undefined || !limitNode || !neverStands(limit)) continue;
    const rule = `Rule${name ? ` "${name.value}"` : ''}`;
    findings.push({
      code: 'never-stands',
      message: limit === 0 ? `${rule} never stands: a limit of 0 is exceeded even at zero usage (use -1 for unlimited)` : `${rule} never stands: ${limit} is negative and only -1 means unlimited`,
      at: spanOf(limitNode),
      // The data travels as plain JSON: a limit beyond 2^53 as its digits.
      data: { name: name?.value, limit: typeof limit === 'bigint' ? limit.toString() : limit },
    });
  }
  const total = reading.defaultTotal;
  if (total && neverStands(total.bytes)) {
    findings.push({
      code: 'never-stands',
      message: `The built-in default group never stands: defaultTotal ${total.bytes} ${total.bytes === 0 ? 'is exceeded even at zero usage' : 'is negative and only -1 means unlimited'}`,
      at: spanOf(total.node),
      data: { limit: typeof total.bytes === 'bigint' ? total.bytes.toString() : total.bytes },
    });
  }
  return findings;
};
