import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'invalid-urn', [
  {
    name: 'a urn that is not of the urn:pulumi form',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "not-a-urn", "custom": true, "id": "a-1", "type": "x:y:A" } // want "\\"not-a-urn\\" is not a urn of the form urn:pulumi:<stack>::<project>::<type>::<name>"',
    ]),
  },
  {
    name: "an empty urn is the schema's business, and a well-formed one is fine",
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
    ]),
  },
]);
