import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'forward-reference', [
  {
    name: 'a dependency on a later resource: the reorder moves it first',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:B::b"] } // want "\'s dependency urn:pulumi:dev::shop::x:y:B::b comes after it (at index 2); import requires it to come first" fix="Reorder resources into dependency order"',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B" }',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:B::b"] }',
    ]),
  },
  {
    name: 'resources in dependency order are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:B::b"] }',
    ]),
  },
]);
