import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'newer-engine-property', [
  {
    name: 'one summary on the first occurrence, with the counts',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "created": "2024-01-01T00:00:00Z" } // want "Fields Pulumi declares but the seed\'s v3 record schema lacks: created (2), modified (1)"',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "created": "2024-01-01T00:00:00Z", "modified": "2024-01-02T00:00:00Z" }',
    ]),
  },
  {
    name: 'seed-v3 mode: those fields are unknown properties instead, no summary',
    options: { stateSchema: 'seed-v3' },
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "created": "2024-01-01T00:00:00Z" }',
    ]),
  },
  {
    name: 'records with only the seed fields need no summary',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
    ]),
  },
]);
