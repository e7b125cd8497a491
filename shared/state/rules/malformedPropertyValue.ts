/**
 * `malformed-property-value`: a special value (secret, asset, archive, resource reference, float,
 * byte string) Pulumi's loader refuses, named once by its signature, from the schema pass; in
 * seed-v3 mode also a property value the seed's encoding refuses when no such problem explains it.
 */
import * as l10n from '@vscode/l10n';
import type { StateFinding } from '../passes/findings';
import { describePath } from '../passes/schemaPass';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ schema }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = schema.malformedValues.map((problem) => ({
    code: 'malformed-property-value',
    message: problem.message,
    at: { path: problem.path, part: 'name' },
    data: { path: problem.path },
  }));
  for (const root of schema.offSchemaValues) {
    out.push({
      code: 'malformed-property-value',
      message: l10n.t("{0} does not follow the seed schema's property-value encoding", describePath(root)),
      at: { path: root, part: 'name' },
      data: { path: root },
    });
  }
  return out;
}

export const malformedPropertyValue: StateRule = {
  code: 'malformed-property-value',
  doc: "A property value breaks Pulumi's encoding (secret, signature, resource reference, asset, archive).",
  check,
};
