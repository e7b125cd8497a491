import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'parent-urn-mismatch', [
  {
    name: "a child whose urn does not carry its parent's qualified type",
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:Comp::c", "custom": false, "type": "x:y:Comp", "parent": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:Other$x:y:Child::k", "custom": true, "id": "k-1", "type": "x:y:Child", "parent": "urn:pulumi:dev::shop::x:y:Comp::c" } // want "The urn\'s qualified type \\"x:y:Other$x:y:Child\\" does not match its parent urn:pulumi:dev::shop::x:y:Comp::c: expected \\"x:y:Comp$x:y:Child\\""',
    ]),
  },
  {
    name: 'a child qualified by its parent, and one under the stack, are fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:Comp::c", "custom": false, "type": "x:y:Comp", "parent": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:Comp$x:y:Child::k", "custom": true, "id": "k-1", "type": "x:y:Child", "parent": "urn:pulumi:dev::shop::x:y:Comp::c" }',
    ]),
  },
]);
