/** Usage is given per leaf subject: an aggregate is the sum of its leaves (none and size:assets:wiki measure nothing and pass). */
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, subjectLeaves } from '../subjects';
import type { QuotaCheck } from './finding';

export const aggregateUsage: QuotaCheck = (reading) =>
  reading.aggregateUsage.flatMap(({ key, subject }) => {
    const canonical = canonicalSubject(subject)!;
    if (canonical === 'none' || canonical === 'size:assets:wiki') return [];
    return [{ code: 'schema', message: `Usage is given per leaf subject: ${subject} is the sum of ${subjectLeaves(canonical).join(', ')}; give those instead`, at: spanOf(key) }];
  });
