/**
 * `duplicate-alias`: two resources claim the same alias. Pulumi's loader and integrity check accept
 * it; only the next `pulumi up` refuses it (NormalizeURNReferences), hence a warning in pulumi mode.
 */
import * as l10n from '@vscode/l10n';
import { aliasReferences, type ReferenceSite } from '../model/structure';
import { resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity, version }: StateRuleContext): StateFinding[] {
  // Version-1 and -2 records have no aliases: the migration to version 3 never reads them.
  if (integrity.isolated || version !== 3) return [];
  const resources = structure.resources;
  const owners = new Map<string, ReferenceSite>();
  const out: StateFinding[] = [];
  for (const resource of resources) {
    for (const site of aliasReferences(resource)) {
      const owner = owners.get(site.target);
      if (!owner) {
        owners.set(site.target, site);
        continue;
      }
      if (owner.from === site.from) continue;
      const first = resourceLabel(resources[owner.from]);
      out.push({
        code: 'duplicate-alias',
        message: l10n.t(
          'Two resources ({0} and {1}) have the same alias {2}; Pulumi loads this, but `pulumi up` refuses it ({3})',
          first,
          resourceLabel(resource),
          site.target,
          '"aliased to the same"',
        ),
        at: valueAnchor(site.path),
        related: [{ at: valueAnchor(owner.path), message: l10n.t('{0} also claims alias {1}', first, site.target) }],
        data: { path: site.path, alias: site.target },
      });
    }
  }
  return out;
}

export const duplicateAlias: StateRule = {
  code: 'duplicate-alias',
  doc: 'Two resources claim the same alias (Pulumi loads the file; the next `pulumi up` refuses it).',
  check,
};
