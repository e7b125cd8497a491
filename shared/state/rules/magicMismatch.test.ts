import { describeRule, STATE_RULE_SPEC, stateExport } from '../../../test/helpers/ruleSpec';

describeRule(STATE_RULE_SPEC, 'magic-mismatch', [
  {
    name: 'a magic that is not the SHA-256 of the version: the fix recomputes it',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      manifest:
        '{ "time": "2026-01-01T00:00:00Z", "magic": "abc", "version": "v3.100.0" } // want "Manifest magic does not match the SHA-256 of version \\"v3.100.0\\" (expected \\"3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250\\")" fix="Recompute the manifest magic"',
    }),
    fixed: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      manifest: '{ "time": "2026-01-01T00:00:00Z", "magic": "3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250", "version": "v3.100.0" }',
    }),
  },
  {
    name: 'pulumi mode: an absent magic reads as "", which does not match a version',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      manifest: '{ "time": "2026-01-01T00:00:00Z", "version": "v3.100.0" } // want "does not match the SHA-256 of version \\"v3.100.0\\""',
    }),
  },
  {
    name: "seed-v3 mode: an absent magic is the schema's business, not this rule's",
    options: { stateSchema: 'seed-v3' },
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      manifest: '{ "time": "2026-01-01T00:00:00Z", "version": "v3.100.0" }',
    }),
  },
  {
    name: 'the right magic is fine',
    text: stateExport(['{ "urn": "urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev", "custom": false, "type": "pulumi:pulumi:Stack" }'], {
      manifest: '{ "time": "2026-01-01T00:00:00Z", "magic": "3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250", "version": "v3.100.0" }',
    }),
  },
]);
