/** `foreign-stack`: a urn that names a stack other than the file's (the checkpoint's, the root stack resource's, or most urns'). */
import * as l10n from '@vscode/l10n';
import type { StateStructure } from '../model/structure';
import { ROOT_STACK_TYPE, type ParsedUrn } from '../model/urn';
import { resourceAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  if (integrity.isolated) return [];
  const fileStack = stackOfFile(structure, integrity.parsedUrns);
  if (!fileStack) return [];
  const { stack, source } = fileStack;
  const out: StateFinding[] = [];
  for (const resource of structure.resources) {
    const parsed = integrity.parsedUrns[resource.index];
    if (!parsed || parsed.stack === stack) continue;
    out.push({
      code: 'foreign-stack',
      message: l10n.t('Resource {0} is from stack "{1}", but this file\'s stack is "{2}" (from {3})', String(resource.urn), parsed.stack, stack, source),
      at: resourceAnchor(resource.path, true),
      data: { path: resource.path, stack },
    });
  }
  return out;
}

/** The file's stack and where it comes from: the checkpoint, else the root stack resource, else most urns. */
function stackOfFile(structure: StateStructure, parsedUrns: Array<ParsedUrn | undefined>): { stack: string; source: string } | undefined {
  const checkpointStack = structure.checkpointStack ? checkpointStackName(structure.checkpointStack) : undefined;
  if (checkpointStack) return { stack: checkpointStack, source: l10n.t('the checkpoint') };
  const root = structure.resources.find((r) => r.type === ROOT_STACK_TYPE && parsedUrns[r.index]);
  const rootStack = root && parsedUrns[root.index]!.stack;
  if (rootStack) return { stack: rootStack, source: l10n.t('the {0} resource', ROOT_STACK_TYPE) };
  const counts = new Map<string, number>();
  for (const r of structure.resources) {
    const parsed = parsedUrns[r.index];
    if (parsed) counts.set(parsed.stack, (counts.get(parsed.stack) ?? 0) + 1);
  }
  let stack: string | undefined;
  let best = 0;
  for (const [name, count] of counts) if (count > best) [stack, best] = [name, count];
  return stack ? { stack, source: l10n.t('most urns') } : undefined;
}

/**
 * The stack a DIY checkpoint names, as urns name it: project-mode backends write the fully qualified
 * `organization/<project>/<stack>` (pkg/backend/diy/backend.go, `diyBackendReference.FullyQualifiedName`),
 * while urns carry only the stack's own name, so the last segment is compared.
 */
function checkpointStackName(stack: string): string {
  const slash = stack.lastIndexOf('/');
  return slash === -1 ? stack : stack.slice(slash + 1);
}

export const foreignStack: StateRule = {
  code: 'foreign-stack',
  doc: "A urn names a stack other than the file's stack.",
  check,
};
