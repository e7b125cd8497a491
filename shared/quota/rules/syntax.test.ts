import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

const DEEP = `${'['.repeat(300)}${']'.repeat(300)}`;

describeRule(QUOTA_RULE_SPEC, 'syntax', [
  {
    name: 'a missing value in a quota config',
    text: `{
  "rules": [
    { "name": "free", "limit": , "subjects": ["size:all"] } // want "JSON syntax error"
  ]
}`,
  },
  {
    name: 'an unclosed instance file',
    text: `{
  "accounts": [
    { "name": "alice", "type": "user" }
  ] // want "JSON syntax error: a closing brace } is expected"`,
  },
  {
    name: 'a value nested deeper than the analyses read',
    text: `{ "usage": ${DEEP} } // want "nested deeper than 256 levels"`,
  },
  {
    name: 'comments and trailing commas are JSON with comments',
    text: `// Quota for the free tier.
{
  "rules": [
    /* one rule */ { "name": "free", "limit": "1 GiB", "subjects": ["size:all"], },
  ],
  "groups": [{ "name": "free", "rules": ["free"] }],
}`,
  },
  {
    name: 'an instance file nested exactly as deep as the bound allows',
    text: `{ "accounts": [{ "name": "alice", "type": "user" }], "usage": {} }`,
  },
]);
