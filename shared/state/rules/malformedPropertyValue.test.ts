import { describeRule, STATE_RULE_SPEC } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'malformed-property-value', [
  {
    name: "one problem repeated inside a secret's plaintext is reported once, where the secret is",
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "outputs": {
    "bundle": { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "plaintext": "[{\\"4dabf18193072939515e22adb298388d\\": \\"c44067f5952c0a294b673a41bacd8c17\\", \\"hash\\": 5}, {\\"4dabf18193072939515e22adb298388d\\": \\"c44067f5952c0a294b673a41bacd8c17\\", \\"hash\\": 5}]" } // want "in the secret's plaintext: unexpected asset hash of type an integer"
  }
}`,
  },
  {
    name: 'a secret with neither ciphertext nor plaintext',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "outputs": {
    "password": { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" } // want "malformed secret value: exactly one of \`ciphertext\` or \`plaintext\` must be supplied"
  }
}`,
  },
  {
    name: 'seed-v3 mode: an asset with two contents, which Pulumi loads but the seed schema refuses',
    options: { stateSchema: 'seed-v3' },
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "outputs": {
    "file": { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", "text": "a", "path": "b" } // want "\\"file\\" does not follow the seed schema's property-value encoding"
  }
}`,
  },
  {
    name: 'pulumi mode: the same asset loads',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "outputs": {
    "file": { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", "text": "a", "path": "b" }
  }
}`,
  },
  {
    name: 'a well-formed secret is fine',
    text: `{
  "urn": "urn:pulumi:dev::shop::x:y:A::a",
  "custom": true,
  "type": "x:y:A",
  "outputs": {
    "password": { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "plaintext": "\\"hunter2\\"" }
  }
}`,
  },
]);
