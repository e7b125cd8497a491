import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'empty-subjects', [
  {
    name: 'an empty subject list',
    text: `{
  "rules": [
    { "name": "nothing", "limit": 5, "subjects": [] } // want "Rule \\"nothing\\" has no subjects, so it applies to nothing"
  ]
}`,
  },
  {
    name: 'a rule without subjects, named and nameless',
    text: `{
  "rules": [
    { "name": "bare", "limit": 5 }, // want "Rule \\"bare\\" has no subjects"
    { "limit": 5 } // want "Rule has no subjects, so it applies to nothing"
  ]
}`,
  },
  {
    name: 'a rule with subjects, and subjects that are not a list (the schema reports those)',
    text: `{
  "rules": [
    { "name": "all", "limit": 5, "subjects": ["size:all"] },
    { "name": "odd", "limit": 5, "subjects": "size:all" }
  ]
}`,
  },
]);
