import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'invalid-provider-reference', [
  {
    name: 'a provider reference without an id',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default" } // want "provider reference is not <provider urn>::<id>"',
    ]),
  },
  {
    name: 'a provider resource whose urn is not a valid urn',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::aws", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" } // want "Provider urn:pulumi:dev::aws is not referenceable"',
    ]),
  },
  {
    name: 'a reference to a provider by urn and id is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1" }',
    ]),
  },
]);
