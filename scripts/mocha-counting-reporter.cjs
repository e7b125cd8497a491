// mocha's spec reporter, plus the counts written as JSON to $QUOTA_STATE_MOCHA_RESULTS when the run
// ends, so scripts/run-tests.mjs can add them to the extension-host counts without parsing text.
const { writeFileSync } = require('node:fs');
const Mocha = require('mocha');

class CountingSpecReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    // The titles of failing tests travel with the counts, so the run's summary can name each one.
    const failing = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test) => failing.push(test.fullTitle()));
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const file = process.env.QUOTA_STATE_MOCHA_RESULTS;
      if (!file) return;
      const { passes = 0, failures = 0, pending = 0 } = runner.stats ?? {};
      writeFileSync(file, JSON.stringify({ passed: passes, failed: failures, pending, failing }));
    });
  }
}

module.exports = CountingSpecReporter;
