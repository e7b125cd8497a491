import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

const STACK = '{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }';
const UUID = '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f';

describe('state rule invalid-snippet, with a fixed uuid', () => {
  // The fix writes a random uuid: a fixed one makes its text comparable.
  const randomUUID = globalThis.crypto.randomUUID;
  before(() => {
    globalThis.crypto.randomUUID = () => UUID;
  });
  after(() => {
    globalThis.crypto.randomUUID = randomUUID;
  });

  describeRule(STATE_RULE_SPEC, 'invalid-snippet', [
    {
      name: 'a snippet without a uuid: the fix adds one',
      text: stateExport([STACK], { deployment: ['"snippets": [{ "name": "s" }] // want "Snippet at index 0 is missing the required \\"uuid\\" field" fix="Add a snippet uuid"'] }),
      fixed: stateExport([STACK], { deployment: [`"snippets": [{ "uuid": "${UUID}", "name": "s" }]`] }),
    },
    {
      name: 'two snippets with one uuid',
      text: stateExport([STACK], { deployment: ['"snippets": [{ "uuid": "u-1" }, { "uuid": "u-1" }] // want "Duplicate snippet uuid \\"u-1\\" at indexes 0 and 1"'] }),
    },
    {
      name: 'snippets with distinct uuids are fine',
      text: stateExport([STACK], { deployment: ['"snippets": [{ "uuid": "u-1" }, { "uuid": "u-2" }]'] }),
    },
  ]);
});
