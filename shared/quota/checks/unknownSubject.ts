/** Every subject is one Forgejo accepts; the closest ones are suggested. */
import { spanOf } from '../../json/jsoncTree';
import { canonicalSubject, suggestSubjects } from '../subjects';
import type { QuotaCheck } from './finding';

export const unknownSubjects: QuotaCheck = (reading) =>
  reading.subjects
    .filter(({ value }) => !canonicalSubject(value))
    .map(({ value, node, where }) => {
      const suggestions = suggestSubjects(value);
      return {
        code: 'unknown-subject',
        message: `"${value}" in ${where} is not a quota subject${suggestions.length ? `. Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''}`,
        at: spanOf(node),
        data: { value, suggestions },
      };
    });
