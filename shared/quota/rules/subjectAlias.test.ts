import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'subject-alias', [
  {
    name: "the seed's spelling in a rule, replaced by the canonical one",
    text: `{
  "rules": [
    // want "\\"size:wiki\\" is the seed's spelling of \\"size:assets:wiki\\"" fix="Use the canonical spelling \\"size:assets:wiki\\""
    { "name": "git", "limit": "1 GiB", "subjects": ["sizeall", "size:wiki"] } // want "\\"sizeall\\" is the seed's spelling of \\"size:git:all\\"" fix="Use the canonical spelling \\"size:git:all\\""
  ]
}`,
    fixed: `{
  "rules": [
    { "name": "git", "limit": "1 GiB", "subjects": ["size:git:all", "size:assets:wiki"] }
  ]
}`,
  },
  {
    name: "the seed's spelling as a usage key",
    text: `{
  "usage": { "alice": { "sizelfs": 5 } } // want "\\"sizelfs\\" is the seed's spelling of \\"size:git:lfs\\""
}`,
  },
  {
    name: 'canonical spellings, and strings that are no subject at all',
    text: `{
  "rules": [{ "name": "git", "limit": 1, "subjects": ["size:git:all", "size:assets:wiki", "size:al"] }],
  "usage": { "alice": { "size:git:lfs": 5 } }
}`,
  },
]);
