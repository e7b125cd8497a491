import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'foreign-stack', [
  {
    name: "a urn of another stack than the stack resource's",
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:prod::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" } // want "is from stack \\"prod\\", but this file\'s stack is \\"dev\\" (from the pulumi:pulumi:Stack resource)"',
    ]),
  },
  {
    name: 'without a stack resource, most urns decide',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B" }',
      '{ "urn": "urn:pulumi:prod::shop::x:y:C::c", "custom": true, "id": "c-1", "type": "x:y:C" } // want "(from most urns)"',
    ]),
  },
  {
    name: 'urns of one stack are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
    ]),
  },
]);
