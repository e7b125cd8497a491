import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'unsupported-version', [
  {
    name: 'a deployment version newer than Pulumi loads',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      version: '5 // want "this stack\'s deployment version is too new (version 5; it loads versions 1 to 4)"',
    }),
  },
  {
    name: 'a deployment version older than Pulumi loads',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      version: '0 // want "this stack\'s deployment is too old (version 0"',
    }),
  },
  {
    name: 'seed-v3 mode: any version but 3',
    options: { stateSchema: 'seed-v3' },
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      version: '4 // want "Version 4 is not supported in seed-v3 mode (only version 3)"',
    }),
  },
  {
    name: 'pulumi mode: versions 1 to 4 load',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], { version: 4 }),
  },
]);
