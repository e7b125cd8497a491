/** A rule, group, account or repository name is defined once; a later definition points at the first. Shared by the four duplicate-* modules. */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { NameKind } from '../reader';
import { ofReading, type QuotaCheck } from './quotaDiagnosticRule';

/** The two sentences of a repeated name, one pair per kind (a translation may word each kind its own way). */
function duplicateMessages(kind: NameKind, name: string): { message: string; first: string } {
  switch (kind) {
    case 'rule':
      return { message: l10n.t('Rule "{0}" is defined more than once', name), first: l10n.t('First definition of rule "{0}"', name) };
    case 'group':
      return { message: l10n.t('Group "{0}" is defined more than once', name), first: l10n.t('First definition of group "{0}"', name) };
    case 'account':
      return { message: l10n.t('Account "{0}" is defined more than once', name), first: l10n.t('First definition of account "{0}"', name) };
    case 'repo':
      return { message: l10n.t('Repo "{0}" is defined more than once', name), first: l10n.t('First definition of repo "{0}"', name) };
  }
}

/** Reports `duplicate-<kind>` on every repeated definition of a name of `kind`. */
export function duplicateNames(kind: NameKind): QuotaCheck {
  return ofReading((reading) =>
    reading.definitions
      .filter((d) => d.kind === kind && d.first)
      .map((d) => {
        const { message, first } = duplicateMessages(kind, d.name);
        return { code: `duplicate-${kind}`, message, at: spanOf(d.node), related: [{ at: spanOf(d.first!), message: first }], data: { name: d.name } };
      }),
  );
}
