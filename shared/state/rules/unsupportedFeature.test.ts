import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'unsupported-feature', [
  {
    name: 'a version-4 feature Pulumi does not support, removed by the fix',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      version: 4,
      top: ['"features": ["teleport"] // want "(\\"teleport\\" is not one Pulumi supports)" fix="Remove the unsupported feature \\"teleport\\""'],
    }),
    fixed: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], { version: 4, top: ['"features": []'] }),
  },
  {
    name: 'the features Pulumi supports are fine',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      version: 4,
      top: ['"features": ["taint", "replaceWith"]'],
    }),
  },
  {
    name: "seed-v3 mode: features are the schema's business, not this rule's",
    options: { stateSchema: 'seed-v3' },
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], { version: 4, top: ['"features": ["teleport"]'] }),
  },
]);
