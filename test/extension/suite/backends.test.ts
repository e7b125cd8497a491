/**
 * The Pulumi Backends view in Node's extension host, on the installed extension (the browser's runs
 * the same scenario in test/extension/webSuite).
 */
import { backendsScenario } from '../backendsScenario';
import { revertAndCloseAll } from './helpers';

describe('the Pulumi Backends view', () => {
  afterEach(revertAndCloseAll);

  it('lists a real backend, opens a gzip checkpoint read-only, and compares versions', async () => {
    await backendsScenario();
  });
});
