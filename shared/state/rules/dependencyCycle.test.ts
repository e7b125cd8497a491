import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'dependency-cycle', [
  {
    name: 'two resources that depend on each other',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:B::b"] } // want "Dependency cycle: urn:pulumi:dev::shop::x:y:A::a → urn:pulumi:dev::shop::x:y:B::b → urn:pulumi:dev::shop::x:y:A::a"',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "dependencies": ["urn:pulumi:dev::shop::x:y:A::a"] }',
    ]),
  },
  {
    name: 'a live copy and its copy pending deletion are no cycle',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-2", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:B::b"] }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "dependencies": ["urn:pulumi:dev::shop::x:y:A::a"], "delete": true }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-2", "type": "x:y:B" }',
    ]),
  },
]);
