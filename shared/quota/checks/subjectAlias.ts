/** A seed spelling of a subject is one real Forgejo servers reject: the canonical one is offered. */
import * as l10n from '@vscode/l10n';
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
        message: l10n.t('"{0}" is the seed\'s spelling of "{1}"; real Forgejo servers accept only "{1}"', value, canonical),
        at: spanOf(node),
        data: { value, canonical },
      };
    });
