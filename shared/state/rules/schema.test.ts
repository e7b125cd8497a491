import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'schema', [
  {
    name: 'a value of the wrong type',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": "yes", // want "\\"custom\\" must be a boolean, not a string"
  "type": "x:y:A"
}`,
  },
  {
    name: 'a resource of an export without a urn, and one whose urn is null',
    text: stateExport([
      '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }',
      '{ "custom": true, "type": "x:y:A" } // want "Resource at index 1 is missing the required property \\"urn\\""',
      '{ "urn": null, "custom": true, "type": "x:y:A" } // want "Resource at index 2 is missing the required property \\"urn\\" (it is null)"',
    ]),
  },
  {
    name: "a pending operation whose resource has no urn: the schema says so, and so does Pulumi's loader",
    text: `{
  "version": 3,
  "deployment": {
    "manifest": { "time": "2026-01-01T00:00:00Z", "magic": "", "version": "" },
    // want "Resource is missing the required property \\"urn\\""
    "pending_operations": [{ "type": "creating", "resource": { "custom": true, "type": "x:y:A" } }] // want "The pending operation's resource is missing the required property \\"urn\\" (Pulumi refuses the file)"
  }
}`,
  },
  {
    name: 'a document that is not an object',
    text: `[ // want "A state file must be a JSON object"
  1
]`,
  },
  {
    name: 'a well-formed record is fine, with members Pulumi ignores',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "colour": 1
}`,
  },
]);
