/**
 * The mocha entry of the browser's web worker extension host (`extensionTestsPath` with
 * `extensionDevelopmentKind: web`): bundled into one file with the suites, since that host loads
 * a single CommonJS script and gives it only `vscode`. There is no file system or environment
 * there, so the runner (scripts/test-extension.mjs) passes its addresses in the workspace's
 * settings (`quotaStateTest.*`), and the report and the counts go back to it over HTTP.
 */
import * as vscode from 'vscode';
import { figures } from './startupFigure';
// The browser build of mocha (UMD, in a "type": "module" package): it sets `globalThis.mocha`, and no global `process`.
import 'mocha/mocha.js';

interface BrowserMocha {
  setup(options: Record<string, unknown>): void;
  suite: { emit(event: string, ...args: unknown[]): void };
  run(done: (failures: number) => void): MochaRunner;
}
interface MochaRunner {
  on(event: string, listener: (...args: never[]) => void): void;
}
interface MochaTest {
  fullTitle(): string;
  title: string;
  parent?: { fullTitle(): string };
}

const mocha = (globalThis as unknown as { mocha: BrowserMocha }).mocha;

/**
 * Runs the suites `loadSuites` requires (the runner's generated entry requires every *.test.ts),
 * after `mocha.setup` has defined describe/it on globalThis.
 */
export function runSuites(loadSuites: () => void): Promise<void> {
  const settings = vscode.workspace.getConfiguration('quotaStateTest');
  const resultsUrl = settings.get<string>('resultsUrl');
  const grep = settings.get<string>('grep');
  mocha.setup({ ui: 'bdd', timeout: 180_000, reporter: function () {}, ...(grep ? { grep } : {}) });
  loadSuites();

  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const failing: string[] = [];
    const runner = mocha.run(() => {
      lines.push('', `${passed} passing`, ...(failed ? [`${failed} failing`] : []));
      const report = `${lines.join('\n')}\n`;
      const done = () => {
        if (failed > 0) reject(new Error(`${failed} extension test(s) failed`));
        else if (passed === 0) reject(new Error('no extension test ran'));
        else resolve();
      };
      // text/plain keeps this a simple request (no preflight); the runner answers with CORS headers.
      if (!resultsUrl) return done();
      void fetch(resultsUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ passed, failed, failing, report, figures: figures() }) })
        .catch((error) => console.error(`could not report the results: ${error}`))
        .then(done);
    });
    let lastSuite = '';
    const heading = (test: MochaTest) => {
      const suite = test.parent?.fullTitle() ?? '';
      if (suite !== lastSuite) lines.push('', `  ${suite}`);
      lastSuite = suite;
    };
    runner.on('pass', (test: MochaTest) => {
      passed++;
      heading(test);
      lines.push(`    ✔ ${test.title}`);
    });
    runner.on('fail', (test: MochaTest, error: Error) => {
      failed++;
      failing.push(test.fullTitle());
      heading(test);
      lines.push(
        `    ✘ ${test.title}`,
        `      ${String(error?.stack ?? error)
          .split('\n')
          .join('\n      ')}`,
      );
    });
  });
}
