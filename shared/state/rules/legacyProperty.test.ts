import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'legacy-property', [
  {
    name: 'a field older engines wrote: one summary, and the fix removes every occurrence',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "sequenceNumber": 1 } // want "Fields older Pulumi engines wrote and Pulumi now ignores: sequenceNumber (2)" fix="Remove the legacy property \\"sequenceNumber\\" (2 occurrences)"',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "sequenceNumber": 2 }',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B" }',
    ]),
  },
  {
    name: 'seed-v3 mode: no summary (the field is an unknown property there)',
    options: { stateSchema: 'seed-v3' },
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "sequenceNumber": 1 }',
    ]),
  },
  {
    name: 'a current record is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
    ]),
  },
]);
