/**
 * `invalid-provider-reference`: a provider reference that is not `<provider urn>::<id>`, or a
 * provider resource whose urn no reference could name (from the integrity index).
 */
import * as l10n from '@vscode/l10n';
import { resourceAnchor, resourceLabel, valueAnchor, type StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ integrity }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = integrity.unreferenceableProviders.map(({ resource, problem }) => ({
    code: 'invalid-provider-reference',
    message: l10n.t('Provider {0} is not referenceable: {1}', String(resource.urn), problem),
    at: resourceAnchor(resource.path, true),
    data: { urn: resource.urn },
  }));
  for (const { resource, reference, parsed } of integrity.providerUses) {
    if (!('error' in parsed)) continue;
    const path = [...resource.path, 'provider'];
    out.push({
      code: 'invalid-provider-reference',
      message: l10n.t("Resource {0}'s provider reference is not {1}: {2}", resourceLabel(resource), '<provider urn>::<id>', parsed.error),
      at: valueAnchor(path),
      data: { path, reference },
    });
  }
  return out;
}

export const invalidProviderReference: StateRule = {
  code: 'invalid-provider-reference',
  doc: 'A provider reference is not `<provider urn>::<id>` with a `pulumi:providers:<pkg>` type.',
  check,
};
