/**
 * `unknown-provider`: a provider reference no earlier provider resource answers (same urn and id),
 * as VerifyIntegrity registers providers in file order (from the integrity index).
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import type { ResourceEntry } from '../model/structure';
import { isProviderType, UNKNOWN_ID } from '../model/urn';
import { definitionAnchor, resourceLabel, valueAnchor, type Anchor, type StateFinding } from '../passes/findings';
import { located, replaceValue } from '../passes/fixes';
import type { IntegrityIndex } from '../passes/integrityIndex';
import { reorderFix } from '../passes/reorder';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ structure, integrity }: StateRuleContext): StateFinding[] {
  if (integrity.isolated) return [];
  const out: StateFinding[] = [];
  for (const { resource, reference, parsed } of integrity.providerUses) {
    if ('error' in parsed || (resource.value as Record<string, unknown>).pendingReplacement === true) continue;
    // Registered before this resource's own reference is checked: a provider naming itself (same urn and id) passes.
    if ((integrity.providers.get(reference) ?? Infinity) <= resource.index) continue;
    out.push(unknownProviderFinding(structure.resources, integrity, resource, reference, parsed.urn, parsed.id));
  }
  return out;
}

/** With another id it is an unknown provider like any other; the message names what the file does have. */
function unknownProviderFinding(resources: ResourceEntry[], integrity: IntegrityIndex, resource: ResourceEntry, reference: string, urn: string, id: string): StateFinding {
  const path = [...resource.path, 'provider'];
  const name = resourceLabel(resource);
  const candidates = (integrity.byUrn.get(urn) ?? []).filter((i) => resources[i].type !== undefined && isProviderType(resources[i].type!));
  const sameId = candidates.find((i) => providerIdOf(resources[i]) === (id === '' ? '\u0000' : id));
  const earlierOther = candidates.filter((i) => i < resource.index).pop();
  const related: Array<{ at: Anchor; message: string }> = [];
  let message: string;
  const data: Record<string, unknown> = { path, reference, from: resource.index, target: urn, kind: 'provider' };
  if (sameId !== undefined && sameId > resource.index) {
    message = l10n.t('Resource {0} refers to provider {1}, which is declared after it (at index {2}); import requires providers to come first', name, reference, sameId);
    related.push({ at: definitionAnchor(resources, sameId), message: l10n.t('Provider {0} is defined here', urn) });
    data.later = true;
  } else if (earlierOther !== undefined) {
    const currentId = providerIdOf(resources[earlierOther]);
    message = l10n.t('Resource {0} refers to unknown provider {1}: provider {2} has id "{3}"', name, reference, urn, currentId);
    related.push({ at: definitionAnchor(resources, earlierOther), message: l10n.t('Provider {0} is defined here', urn) });
    data.suggestion = `${urn}::${currentId}`;
  } else {
    message = l10n.t('Resource {0} refers to unknown provider {1}', name, reference);
    if (candidates.length) related.push({ at: definitionAnchor(resources, candidates[0]), message: l10n.t('Provider {0} is defined here, after the resource', urn) });
  }
  return { code: 'unknown-provider', message, at: valueAnchor(path), related: related.length ? related : undefined, data };
}

/** The id a provider is registered under (the unknown ID when empty). */
function providerIdOf(resource: ResourceEntry): string {
  const id = (resource.value as Record<string, unknown>).id;
  return typeof id === 'string' && id !== '' ? id : UNKNOWN_ID;
}

/** Point the reference at the id the provider has, or reorder when the provider comes later. */
function unknownProviderFixes(analysis: StateSnapshot, { data }: FixRequest): Fix[] {
  const fixes: Fix[] = [];
  const node = located(analysis, data);
  if (node && typeof data.suggestion === 'string') {
    fixes.push({ title: l10n.t('Point the provider reference at {0}', String(data.suggestion)), edits: [replaceValue(node, data.suggestion)], preferred: true });
  }
  if (data.later === true) fixes.push(...reorderFix(analysis));
  return fixes;
}

export const unknownProvider: StateRule = {
  code: 'unknown-provider',
  doc: 'No earlier provider resource has that urn and id.',
  check,
  fix: unknownProviderFixes,
};
