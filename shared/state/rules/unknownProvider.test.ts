import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'unknown-provider', [
  {
    name: 'a reference to a provider with another id: the fix points it at the current id',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-0" } // want "provider urn:pulumi:dev::shop::pulumi:providers:aws::default has id \\"prov-1\\"" fix="Point the provider reference at urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1"',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1" }',
    ]),
  },
  {
    name: 'a provider declared after its user: the reorder moves it first',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1" } // want "which is declared after it (at index 2); import requires providers to come first" fix="Reorder resources into dependency order"',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1" }',
    ]),
  },
  {
    name: 'no provider of that urn at all',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:gcp::default::p" } // want "refers to unknown provider urn:pulumi:dev::shop::pulumi:providers:gcp::default::p"',
    ]),
  },
  {
    name: 'a reference to an earlier provider by its urn and id is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::pulumi:providers:aws::default", "custom": true, "id": "prov-1", "type": "pulumi:providers:aws" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "provider": "urn:pulumi:dev::shop::pulumi:providers:aws::default::prov-1" }',
    ]),
  },
]);
