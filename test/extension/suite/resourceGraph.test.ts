/**
 * The resource graph in Node's extension host, on the installed extension (the browser's runs the
 * same scenario in test/extension/webSuite).
 */
import { resourceGraphScenario } from '../resourceGraphScenario';
import { revertAndCloseAll } from './helpers';

describe('the resource graph', () => {
  afterEach(revertAndCloseAll);

  it('draws a focus, refocuses on a click that reveals the record, finds, follows edits and keeps the last good parse', async () => {
    await resourceGraphScenario();
  });
});
