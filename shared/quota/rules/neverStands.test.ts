import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'never-stands', [
  {
    name: 'a limit of 0',
    text: `{
  "rules": [
    { "name": "zero", "limit": 0, "subjects": ["size:all"] } // want "Rule \\"zero\\" never stands: a limit of 0 is exceeded even at zero usage"
  ]
}`,
  },
  {
    name: 'a negative limit other than -1, by a rule with and without a name',
    text: `{
  "rules": [
    { "name": "minus", "limit": -5, "subjects": ["size:all"] }, // want "Rule \\"minus\\" never stands: -5 is negative and only -1 means unlimited"
    { "limit": "0 B", "subjects": ["size:all"] } // want "Rule never stands: a limit of 0"
  ]
}`,
  },
  {
    name: 'a defaultTotal of 0 or below -1: the built-in group never stands',
    text: `{
  "defaultTotal": 0 // want "The built-in default group never stands: defaultTotal 0 is exceeded even at zero usage"
}`,
  },
  {
    name: 'a negative defaultTotal',
    text: `{
  "defaultTotal": -2 // want "The built-in default group never stands: defaultTotal -2 is negative"
}`,
  },
  {
    name: 'unlimited and positive limits stand, and a missing limit is another code',
    text: `{
  "defaultTotal": -1,
  "rules": [
    { "name": "unlimited", "limit": -1, "subjects": ["size:all"] },
    { "name": "one", "limit": 1, "subjects": ["size:all"] },
    { "name": "huge", "limit": 9223372036854775807, "subjects": ["size:all"] },
    { "name": "none", "subjects": ["size:all"] }
  ]
}`,
  },
]);
