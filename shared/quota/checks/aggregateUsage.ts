/** Usage is given per leaf subject: an aggregate is the sum of its leaves (none and size:assets:wiki measure nothing and pass). */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, subjectLeaves } from '../subjects';
import type { QuotaCheck } from './finding';

export const aggregateUsage: QuotaCheck = (reading) =>
  reading.aggregateUsage.flatMap(({ key, subject }) => {
    const canonical = canonicalSubject(subject)!;
    if (canonical === 'none' || canonical === 'size:assets:wiki') return [];
    return [{ code: 'schema', message: l10n.t('Usage is given per leaf subject: {0} is the sum of {1}; give those instead', subject, subjectLeaves(canonical).join(', ')), at: spanOf(key) }];
  });
