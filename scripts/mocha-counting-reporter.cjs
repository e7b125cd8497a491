// mocha's spec reporter, plus the counts written as JSON to $QUOTA_STATE_MOCHA_RESULTS when the run
// ends, so scripts/run-tests.mjs can add them to the extension-host counts without parsing text.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.QUOTA_STATE_MOCHA_RESULTS;
      if (!file) return;
      const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
      writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending }));
    });
  }
}

module.exports = CountingSpecReporter;
