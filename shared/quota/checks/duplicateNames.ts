/** A rule, group, account or repository name is defined once; a later definition points at the first. */
import { spanOf } from '../../json/jsoncTree';
import type { NameKind } from '../reader';
import type { QuotaCheck } from './finding';

export function duplicateNames(kind: NameKind): QuotaCheck {
  const label = kind[0].toUpperCase() + kind.slice(1);
  return (reading) =>
    reading.definitions
      .filter((d) => d.kind === kind && d.first)
      .map((d) => ({
        code: `duplicate-${kind}`,
        message: `${label} "${d.name}" is defined more than once`,
        at: spanOf(d.node),
        related: [{ at: spanOf(d.first!), message: `First definition of ${kind} "${d.name}"` }],
        data: { name: d.name },
      }));
}
