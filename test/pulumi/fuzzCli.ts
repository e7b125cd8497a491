/**
 * `npm run fuzz -- [--seed N] [--count M] [--no-record] [--no-shrink]`: explores further than `npm test`'s fixed seeds.
 * Each disagreement with the real Pulumi is shrunk and written under test/fixtures/pulumi-diff/.
 * Exit 1 when any was found.
 */
import { parseArgs } from 'node:util';
import { recordDisagreement, runFuzz } from './fuzz';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: String(Date.now() % 100_000) },
    count: { type: 'string', default: '1000' },
    'no-record': { type: 'boolean', default: false },
    'no-shrink': { type: 'boolean', default: false },
  },
});
const seed = Number(values.seed);
const count = Number(values.count);
if (!Number.isInteger(seed) || !Number.isInteger(count) || count < 1) {
  console.error('usage: npm run fuzz -- [--seed N] [--count M] [--no-record]');
  process.exit(2);
}
const started = Date.now();
const report = runFuzz({ seed, count, shrink: !values['no-shrink'] });
console.log(
  `seed ${seed}: ${report.mutants} mutants (Pulumi accepted ${report.accepted}, refused ${report.refused}) in ${((Date.now() - started) / 1000).toFixed(1)} s; ${report.disagreements.length} disagreements`,
);
for (const disagreement of report.disagreements) {
  console.log(`\n${disagreement.mutant.name} [${disagreement.mutant.mutations.join(', ')}]\n  ${disagreement.shrunkReason}`);
  if (!values['no-record']) console.log(`  recorded: ${recordDisagreement(disagreement, seed)}`);
}
process.exit(report.disagreements.length ? 1 : 0);
