import { describeRule, QUOTA_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(QUOTA_RULE_SPEC, 'invalid-forgejo-version', [
  {
    name: 'a Gitea version, without the quota API',
    text: `{
  "forgejoVersion": "1.22.0", // want "The previews follow the setting, the connected server or the default instead."
  "rules": []
}`,
  },
  {
    name: 'a Forgejo before the quota API, in an instance file',
    text: `{
  "forgejoVersion": "8.0.3", // want "The previews follow the setting"
  "accounts": [{ "name": "alice", "type": "user" }]
}`,
  },
  {
    name: 'text that is no version at all',
    text: `{ "forgejoVersion": "latest" } // want "The previews follow the setting"`,
  },
  {
    name: 'Forgejo versions with the quota API, bare and as the server reports them',
    text: `{ "forgejoVersion": "11.0.3+gitea-1.22.0", "rules": [] }`,
  },
  {
    name: 'the oldest Forgejo with the quota API, and the default',
    text: `{ "forgejoVersion": "9.0.0" }`,
  },
]);
