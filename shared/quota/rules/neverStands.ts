/** `never-stands`: a limit of 0, or negative other than -1, is exceeded even at zero usage, so the rule (or the built-in group) never stands. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { QuotaReading } from '../reader';
import { ofReading, type QuotaDiagnosticRule, type QuotaFinding } from './quotaDiagnosticRule';

const isNeverStanding = (limit: number | bigint) => limit === 0 || limit < -1;

/** The data travels as plain JSON: a limit beyond 2^53 as its digits. */
const plainLimit = (limit: number | bigint) => (typeof limit === 'bigint' ? limit.toString() : limit);

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

function neverStandingRules(reading: QuotaReading): QuotaFinding[] {
  return reading.rules
    .filter(({ limit, limitNode }) => limit !== undefined && limitNode && isNeverStanding(limit))
    .map(({ name, limit, limitNode }) => ({
      code: 'never-stands',
      message: ruleNeverStands(name?.value, limit!),
      at: spanOf(limitNode!),
      data: { name: name?.value, limit: plainLimit(limit!) },
    }));
}

/** The built-in default group's `defaultTotal`, when it never stands. */
function neverStandingDefaultTotal(reading: QuotaReading): QuotaFinding[] {
  const total = reading.defaultTotal;
  if (!total || !isNeverStanding(total.bytes)) return [];
  const message =
    total.bytes === 0
      ? l10n.t('The built-in default group never stands: defaultTotal {0} is exceeded even at zero usage', String(total.bytes))
      : l10n.t('The built-in default group never stands: defaultTotal {0} is negative and only -1 means unlimited', String(total.bytes));
  return [{ code: 'never-stands', message, at: spanOf(total.node), data: { limit: plainLimit(total.bytes) } }];
}

export const neverStands: QuotaDiagnosticRule = {
  code: 'never-stands',
  doc: 'A limit of 0 or a negative limit other than -1 is exceeded even at zero usage, so the rule never stands; -1, not 0, means unlimited.',
  check: ofReading((reading) => [...neverStandingRules(reading), ...neverStandingDefaultTotal(reading)]),
};
