import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'missing-reference', [
  {
    name: 'a dependency on a urn not in the file, removed by the fix',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:Gone::old"] } // want "Resource urn:pulumi:dev::shop::x:y:A::a\'s dependency urn:pulumi:dev::shop::x:y:Gone::old is not in this file" fix="Remove the reference to urn:pulumi:dev::shop::x:y:Gone::old"',
    ]),
    fixed: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": [] }',
    ]),
  },
  {
    name: 'a parent not in the file',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "parent": "urn:pulumi:dev::shop::x:y:Gone::nobody" } // want "\'s parent urn:pulumi:dev::shop::x:y:Gone::nobody is not in this file"',
    ]),
  },
  {
    name: 'a dependency on an earlier resource is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev"] }',
    ]),
  },
  {
    name: 'a lone record: the other resources are not in the file to look for',
    text: `{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "type": "x:y:A", "dependencies": ["urn:pulumi:dev::shop::x:y:Gone::old"] }`,
  },
]);
