import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';
import type { UndecryptableCause } from '../passes/secrets';

const SIG = '"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"';
const STACK = '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }';
/** Ciphertexts as Pulumi writes them (test/fixtures/secrets/pulumi-vectors.json); which open is the secrets pass's finding, given here. */
const [A, B] = ['v1:Uv1J5dn81D2g9a95:9uOZ+vh2utZwgX6RN3qnEH5t+2RgZeAMhg==', 'v1:g0QuLAdUKS1F/tM5:llzbzIGF48cuceSAy0qePp67aTI='];
const text = (wantA: string, wantB = '') =>
  stateExport([
    STACK,
    `{ "urn": "urn:pulumi:dev::shop::x:y:Db::db", "custom": true, "id": "db-1", "type": "x:y:Db", "outputs": { "password": { ${SIG}, "ciphertext": "${A}" } } } ${wantA}`,
    `{ "urn": "urn:pulumi:dev::shop::x:y:Db::db2", "custom": true, "id": "db-2", "type": "x:y:Db", "outputs": { "flag": { ${SIG}, "ciphertext": "${B}" } } } ${wantB}`,
  ]);
const pathOf = (index: number, name: string) => JSON.stringify(['deployment', 'resources', index, 'outputs', name]);
const found = (causes: Array<[string, UndecryptableCause]>) => ({ secrets: { undecryptable: new Map(causes), encrypted: new Map<string, string>() } });

describeRule(STATE_RULE_SPEC, 'secret-undecryptable', [
  {
    name: 'a ciphertext the stack key does not open: the likely causes, no value',
    text: text(`// want "This secret does not decrypt with the stack's key: it was likely encrypted under another stack's salt (copied from another stack), or before the passphrase was changed."`),
    options: found([[pathOf(1, 'password'), { kind: 'no-key' }]]),
  },
  {
    name: "a damaged ciphertext names Pulumi's reason; one that opens to no JSON says so",
    text: text(
      `// want "This secret's ciphertext is damaged (\\"bad value\\"): Pulumi cannot decrypt it."`,
      `// want "This secret opens with the stack's key, but not to JSON text: Pulumi cannot read it."`,
    ),
    options: found([
      [pathOf(1, 'password'), { kind: 'damaged', message: 'bad value' }],
      [pathOf(2, 'flag'), { kind: 'not-json' }],
    ]),
  },
  {
    name: 'without a passphrase nothing is decrypted, and nothing is reported',
    text: text(''),
  },
  {
    name: 'every ciphertext opened: nothing is reported',
    text: text(''),
    options: found([]),
  },
]);
