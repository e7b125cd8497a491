/**
 * The mocha entry the extension host calls (`extensionTestsPath`): runs every bundled
 * `*.test.js` beside this file. Works unchanged under the code-server runner
 * (scripts/test-extension.mjs) and under @vscode/test-electron (scripts/test-electron.mjs).
 * When the runner asks for it (environment), the report and the counts are also written to files,
 * because the extension host's console reaches the runner only wrapped in workbench log lines.
 */
import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { figures } from './startupFigure';

export function run(): Promise<void> {
  const reportFile = process.env.QUOTA_STATE_TEST_REPORT;
  const resultsFile = process.env.QUOTA_STATE_TEST_RESULTS;
  const grep = process.env.QUOTA_STATE_TEST_GREP;

  if (reportFile) {
    writeFileSync(reportFile, '');
    const consoleLog = Mocha.reporters.Base.consoleLog;
    Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
      appendFileSync(reportFile, `${format(...args)}\n`);
      consoleLog(...args);
    };
  }

  // Generous: on a loaded 2-core machine the first analysis can take long; nothing here asserts on time.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 180_000, reporter: 'spec' });
  if (grep) mocha.grep(grep);
  for (const name of readdirSync(__dirname).sort()) {
    if (name.endsWith('.test.js')) mocha.addFile(join(__dirname, name));
  }

  return new Promise((resolve, reject) => {
    try {
      // The titles of failing tests travel with the counts, so the run's summary can name each one.
      const failing: string[] = [];
      const runner = mocha.run((failures) => {
        const passed = runner.stats?.passes ?? 0;
        const failed = runner.stats?.failures ?? failures;
        if (resultsFile) writeFileSync(resultsFile, JSON.stringify({ passed, failed, pending: runner.stats?.pending ?? 0, failing, figures: figures() }));
        if (failed > 0) reject(new Error(`${failed} extension test(s) failed`));
        else if (passed === 0) reject(new Error('no extension test ran'));
        else resolve();
      });
      runner.on('fail', (test) => failing.push(test.fullTitle()));
    } catch (error) {
      reject(error);
    }
  });
}
