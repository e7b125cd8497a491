import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'self-reference', [
  {
    name: 'a resource that depends on itself, removed by the fix',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:A::a"] } // want "Resource urn:pulumi:dev::shop::x:y:A::a lists itself as its dependency" fix="Remove the reference to urn:pulumi:dev::shop::x:y:A::a"',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": [] }',
    ]),
  },
  {
    name: 'a copy pending deletion may depend on the earlier live copy of its urn',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:A::a"], "delete": true }',
    ]),
  },
]);
