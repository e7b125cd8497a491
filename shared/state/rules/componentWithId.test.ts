import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'component-with-id', [
  {
    name: 'a component resource with an id',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:C::c", "custom": false, "id": "c-1", "type": "x:y:C" } // want "Resource urn:pulumi:dev::shop::x:y:C::c has \\"custom\\" false but a non-empty id \\"c-1\\""',
    ]),
  },
  {
    name: "a pending operation's component resource with an id",
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      deployment: [
        '"pending_operations": [{ "type": "creating", "resource": { "urn": "urn:pulumi:dev::shop::x:y:C::c", "type": "x:y:C", "id": "c-1" } }] // want "Pending operation resource urn:pulumi:dev::shop::x:y:C::c has \\"custom\\" false but a non-empty id \\"c-1\\""',
      ],
    }),
  },
  {
    name: 'a custom resource with an id, and a component with an empty one, are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:C::c", "custom": false, "id": "", "type": "x:y:C" }',
    ]),
  },
]);
