/**
 * Clearing pending operations, as `pulumi stack import` and `pulumi state edit` do when they save a
 * snapshot (pkg/cmd/pulumi/stack/io.go `SaveSnapshot`: "removing pending operation '<type>' on
 * '<urn>' from snapshot"): all of them, or those on the named urns (`URN#N`: the N-th pending
 * operation on that urn). An interrupted update leaves them (Pulumi #4265, #8559, #12335).
 */
import * as l10n from '@vscode/l10n';
import { isObject, valueAt, type JsonObject } from '../model/structure';
import type { SurgeryInput } from './document';
import { finish, openForOperation, refused, type SurgeryOutcome } from './outcome';
import { isValidUrn, notAUrn, similarUrns } from './targets';

export function clearPending(input: SurgeryInput, targets: readonly string[] = [], options: { verify?: boolean } = {}): SurgeryOutcome {
  const operation = 'clear-pending';
  const opened = openForOperation(input, operation);
  if ('refusal' in opened) return opened.refusal;
  const doc = opened.doc;
  const deployment = valueAt(doc.snapshot.structure.root, doc.snapshot.structure.deploymentPath!) as JsonObject;
  const operations = Array.isArray(deployment.pending_operations) ? deployment.pending_operations : [];
  const urnOf = (i: number) => (doc.pending[i] && typeof doc.pending[i]!.urn === 'string' ? (doc.pending[i]!.urn as string) : '');
  const typeOf = (i: number) => {
    const op = operations[i];
    return isObject(op) && typeof op.type === 'string' ? op.type : '';
  };
  let cleared: number[];
  if (targets.length === 0) cleared = operations.map((_, i) => i);
  else {
    const errors: string[] = [];
    const chosen = new Set<number>();
    const pendingUrns = operations.map((_, i) => urnOf(i));
    for (const arg of targets) {
      const address = /^(.*)#([1-9][0-9]*)$/.exec(arg);
      const urn = address && !pendingUrns.includes(arg) ? address[1] : arg;
      if (!isValidUrn(urn)) {
        errors.push(notAUrn(arg));
        continue;
      }
      const matches = pendingUrns.map((u, i) => (u === urn ? i : -1)).filter((i) => i !== -1);
      if (matches.length === 0) {
        const suggestions = similarUrns(pendingUrns.filter(Boolean), urn);
        errors.push(
          [
            l10n.t('No pending operation on "{0}"', urn),
            ...(suggestions.length ? [l10n.t('Did you mean:'), ...suggestions.map((s) => `  ${s}`)] : []),
            pendingUrns.length ? '' : l10n.t('The file has no pending operations.'),
          ]
            .filter(Boolean)
            .join('\n'),
        );
        continue;
      }
      if (address && urn !== arg) {
        const n = Number(address[2]);
        if (n > matches.length) {
          errors.push(
            matches.length === 1 ? l10n.t('{0} has 1 pending operation, so there is no {1}', urn, arg) : l10n.t('{0} has {1} pending operations, so there is no {2}', urn, matches.length, arg),
          );
        } else chosen.add(matches[n - 1]);
      } else for (const i of matches) chosen.add(i);
    }
    if (errors.length) return refused(doc, operation, errors);
    cleared = [...chosen].sort((a, b) => a - b);
  }
  const keep = operations.map((_, i) => i).filter((i) => !cleared.includes(i));
  const pendingCleared = cleared.map((i) => ({ type: typeOf(i), urn: urnOf(i) }));
  const message =
    cleared.length === 0 ? l10n.t('No pending operations to clear') : cleared.length === 1 ? l10n.t('1 pending operation cleared') : l10n.t('{0} pending operations cleared', cleared.length);
  return finish(
    doc,
    operation,
    { records: doc.records.map((value, from) => ({ from, value })), keepPending: keep },
    {
      message,
      pendingCleared,
      notes: pendingCleared
        .map((p) => l10n.t("removing pending operation '{0}' on '{1}' from snapshot", p.type, p.urn))
        .concat(
          pendingCleared.some((p) => p.type === 'creating')
            ? [l10n.t('A cleared {0} operation may have created a cloud resource the state no longer knows: check the provider, and `pulumi import` it if it exists.', '"creating"')]
            : [],
        ),
    },
    options,
  );
}
