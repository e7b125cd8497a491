import { describeRule, STATE_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'unknown-property', [
  {
    name: 'a member Pulumi neither declares nor ever wrote: a warning it ignores, removed by the fix',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "colour": 1 // want "Property \\"colour\\" is not part of a resource record: Pulumi ignores this property" fix="Remove property \\"colour\\""
}`,
    fixed: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A"
}`,
  },
  {
    name: 'a misspelt field: did you mean, and the rename',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "protected": true // want "Did you mean \\"protect\\"?" fix="Rename to \\"protect\\""
}`,
    fixed: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "protect": true
}`,
  },
  {
    name: 'seed-v3 mode: a field the newer engines write is outside the seed schema',
    options: { stateSchema: 'seed-v3' },
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "created": "2024-01-01T00:00:00Z" // want "Property \\"created\\" is not allowed in a resource record (the seed's v3 schema lacks it; written by"
}`,
  },
  {
    name: 'pulumi mode: a field Pulumi declares is no unknown property',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "created": "2024-01-01T00:00:00Z"
}`,
  },
]);
