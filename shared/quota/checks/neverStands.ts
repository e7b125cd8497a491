/** A limit of 0, or negative other than -1, is exceeded even at zero usage: the rule (or the built-in group) never stands. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck, QuotaFinding } from './finding';

const neverStands = (limit: number | bigint) => limit === 0 || limit < -1;

function ruleNeverStands(name: string | undefined, limit: number | bigint): string {
  if (limit === 0) {
    return name !== undefined
      ? l10n.t('Rule "{0}" never stands: a limit of 0 is exceeded even at zero usage (use -1 for unlimited)', name)
      : l10n.t('Rule never stands: a limit of 0 is exceeded even at zero usage (use -1 for unlimited)');
  }
  return name !== undefined
    ? l10n.t('Rule "{0}" never stands: {1} is negative and only -1 means unlimited', name, String(limit))
    : l10n.t('Rule never stands: {0} is negative and only -1 means unlimited', String(limit));
}

export const neverStandingLimits: QuotaCheck = (reading) => {
  const findings: QuotaFinding[] = [];
  for (const { name, limit, limitNode } of reading.rules) {
    if (limit === undefined || !limitNode || !neverStands(limit)) continue;
    findings.push({
      code: 'never-stands',
      message: ruleNeverStands(name?.value, limit),
      at: spanOf(limitNode),
      // The data travels as plain JSON: a limit beyond 2^53 as its digits.
      data: { name: name?.value, limit: typeof limit === 'bigint' ? limit.toString() : limit },
    });
  }
  const total = reading.defaultTotal;
  if (total && neverStands(total.bytes)) {
    findings.push({
      code: 'never-stands',
      message:
        total.bytes === 0
          ? l10n.t('The built-in default group never stands: defaultTotal {0} is exceeded even at zero usage', String(total.bytes))
          : l10n.t('The built-in default group never stands: defaultTotal {0} is negative and only -1 means unlimited', String(total.bytes)),
      at: spanOf(total.node),
      data: { limit: typeof total.bytes === 'bigint' ? total.bytes.toString() : total.bytes },
    });
  }
  return findings;
};
