/** A seed spelling of a subject is one real Forgejo servers reject: the canonical one is offered. */
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, isSubjectAlias } from '../subjects';
import type { QuotaCheck } from './finding';

export const subjectAliases: QuotaCheck = (reading) =>
  reading.subjects
    .filter(({ value }) => canonicalSubject(value) && isSubjectAlias(value))
    .map(({ value, node }) => {
      const canonical = canonicalSubject(value)!;
      return {
        code: 'subject-alias',
        message: `"${value}" is the seed's spelling of "${canonical}"; real Forgejo servers accept only "${canonical}"`,
        at: spanOf(node),
        data: { value, canonical },
      };
    });
