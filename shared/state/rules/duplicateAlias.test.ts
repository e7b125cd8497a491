import { strict as assert } from 'node:assert';
import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

const TWO_CLAIMS = stateExport([
  '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
  '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] }',
  '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] }',
]);

describe('state rule duplicate-alias: severity by schema mode', () => {
  const severities = (stateSchema: 'pulumi' | 'seed-v3') =>
    STATE_RULE_SPEC.diagnostics(TWO_CLAIMS, { stateSchema })
      .filter((d) => d.code === 'duplicate-alias')
      .map((d) => d.severity);
  it('is a warning in pulumi mode, where only the next `pulumi up` refuses it', () => assert.deepEqual(severities('pulumi'), ['warning']));
  it('is an error in seed-v3 mode', () => assert.deepEqual(severities('seed-v3'), ['error']));
});

describeRule(STATE_RULE_SPEC, 'duplicate-alias', [
  {
    name: 'two resources that claim one alias',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] } // want "Two resources (urn:pulumi:dev::shop::x:y:A::a and urn:pulumi:dev::shop::x:y:B::b) have the same alias urn:pulumi:dev::shop::x:y:Old::old"',
    ]),
  },
  {
    name: 'seed-v3 mode reports it too (as an error)',
    options: { stateSchema: 'seed-v3' },
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:B::b", "custom": true, "id": "b-1", "type": "x:y:B", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old"] } // want "have the same alias urn:pulumi:dev::shop::x:y:Old::old"',
    ]),
  },
  {
    name: 'one resource listing an alias twice is fine',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "urn": "urn:pulumi:dev::shop::x:y:A::a", "custom": true, "id": "a-1", "type": "x:y:A", "aliases": ["urn:pulumi:dev::shop::x:y:Old::old", "urn:pulumi:dev::shop::x:y:Old::old"] }',
    ]),
  },
]);
