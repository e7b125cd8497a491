import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'duplicate-urn', [
  {
    name: 'two live copies of one urn: the fix marks the second pending deletion',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A" } // want "Duplicate resource urn:pulumi:dev::shop::x:y:A::a (not marked for deletion); it is also defined at index 1" fix="Mark this duplicate \\"delete\\": true"',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "delete": true, "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A" }',
    ]),
  },
  {
    name: 'a live copy beside one pending deletion is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A", "delete": true }',
    ]),
  },
]);
