import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

const SIG = '"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"';
const STACK = '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }';
const MESSAGE = "This secret is stored in plaintext: anyone who can read the state can read it. Pulumi accepts it, and encrypts it again on the stack's next update.";
const withPlaintext = (want: string) =>
  stateExport([STACK, `{ "urn": "urn:pulumi:dev::shop::x:y:Db::db", "custom": true, "id": "db-1", "type": "x:y:Db", "outputs": { "password": { ${SIG}, "plaintext": "\\"hunter2\\"" } } } ${want}`]);
/** A ciphertext as Pulumi writes one (test/fixtures/secrets/pulumi-vectors.json); the fix only places it. */
const CIPHERTEXT = 'v1:Uv1J5dn81D2g9a95:9uOZ+vh2utZwgX6RN3qnEH5t+2RgZeAMhg==';
const encryptedUnderTheKey = { undecryptable: new Map(), encrypted: new Map([[JSON.stringify(['deployment', 'resources', 1, 'outputs', 'password']), CIPHERTEXT]]) };

describeRule(STATE_RULE_SPEC, 'secret-in-plaintext', [
  {
    name: 'a secret in plaintext, as `stack export --show-secrets` writes it, without a passphrase: reported, no fix',
    text: withPlaintext(`// want "${MESSAGE.replace(/"/g, '\\"')}"`),
  },
  {
    name: 'once the key is known, the fix replaces the object by its ciphertext form',
    text: withPlaintext(`// want "${MESSAGE.replace(/"/g, '\\"')}" fix="Encrypt this secret"`),
    options: { secrets: encryptedUnderTheKey },
    fixed: stateExport([
      STACK,
      `{ "urn": "urn:pulumi:dev::shop::x:y:Db::db", "custom": true, "id": "db-1", "type": "x:y:Db", "outputs": { "password": {"4dabf18193072939515e22adb298388d":"1b47061264138c4ac30d75fd1eb44270","ciphertext":"${CIPHERTEXT}"} } }`,
    ]),
  },
  {
    name: "ciphertexts, malformed secrets (malformed-property-value's), other signatures and secrets inside a secret's plaintext are left alone",
    text: stateExport([
      STACK,
      `{ "urn": "urn:pulumi:dev::shop::x:y:Db::db", "custom": true, "id": "db-1", "type": "x:y:Db", "outputs": { "a": { ${SIG}, "ciphertext": "${CIPHERTEXT}" }, "b": { ${SIG} }, "c": { ${SIG}, "plaintext": "not json" }, "d": { "4dabf18193072939515e22adb298388d": "c44067f5952c0a294b673a41bacd8c17", "text": "x", "hash": "" } } }`,
    ]),
  },
]);
