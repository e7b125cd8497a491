import { describeRule, STATE_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'syntax', [
  {
    name: 'a missing comma between two members',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a"
  "type": "x:y:A" // want "JSON syntax error: comma expected"
}`,
  },
  {
    name: 'valid JSON is fine, whatever the rules say of it',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "type": "x:y:A",
  "colour": 1
}`,
  },
]);
