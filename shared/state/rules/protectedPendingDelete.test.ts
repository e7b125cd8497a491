import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'protected-pending-delete', [
  {
    name: 'a protected copy pending deletion: the fix removes the protect flag that protects nothing',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "protect": true, // want "is pending deletion, so the next update deletes it even though it is protected" fix="Remove \\"protect\\": true (the pending deletion happens regardless)"
  "delete": true
}`,
    fixed: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "delete": true
}`,
  },
  {
    name: 'a protected live resource, and an unprotected copy pending deletion, are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A", "protect": true }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "delete": true }',
    ]),
  },
]);
