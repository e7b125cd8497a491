/** `dependency-cycle`: resources that depend on each other in a cycle, one shortest cycle per strongly connected group (from the integrity index's graph). */
import * as l10n from '@vscode/l10n';
import { REFERENCE_KIND_LABEL } from '../model/structure';
import { shortestCycles } from '../passes/cycles';
import type { StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  if (integrity.isolated) return [];
  const resources = structure.resources;
  const name = (i: number) => resources[i].urn ?? l10n.t('resource at index {0}', i);
  return shortestCycles(resources, integrity.graph).map(({ start, edges }) => {
    const names = [name(start), ...edges.map((edge) => name(edge.to))];
    return {
      code: 'dependency-cycle',
      message: l10n.t('Dependency cycle: {0}', names.join(' → ')),
      at: { path: edges[0].site.path, part: 'value' },
      related: edges.map((edge) => ({
        at: { path: edge.site.path, part: 'value' as const },
        message: l10n.t({
          message: '{0} → {1} ({2})',
          args: [name(edge.site.from), name(edge.to), REFERENCE_KIND_LABEL[edge.site.kind]],
          comment: ['A step of a dependency cycle: resource → resource (the kind of reference)'],
        }),
      })),
      data: { cycle: names, path: edges[0].site.path },
    };
  });
}

export const dependencyCycle: StateRule = {
  code: 'dependency-cycle',
  doc: 'Resources depend on each other in a cycle.',
  check,
};
