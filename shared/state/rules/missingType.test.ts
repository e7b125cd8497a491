import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'missing-type', [
  {
    name: 'a resource without a type',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1" } // want "Resource urn:pulumi:dev::shop::x:y:A::a has no \\"type\\" (import requires it)"',
    ]),
  },
  {
    name: "a pending operation's resource without a type",
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      deployment: [
        '"pending_operations": [{ "type": "creating", "resource": { "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true } }] // want "Pending operation resource urn:pulumi:dev::shop::x:y:A::a has no \\"type\\""',
      ],
    }),
  },
  {
    name: 'resources with a type are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A" }',
    ]),
  },
]);
