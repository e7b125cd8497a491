/**
 * The resource graph in Node's extension host, on the installed extension (the browser's runs the
 * same scenario in test/extension/webSuite).
 */
import { resourceGraphLargeScenario, resourceGraphScenario } from '../resourceGraphScenario';
import { revertAndCloseAll } from './helpers';

describe('the resource graph', () => {
  afterEach(revertAndCloseAll);

  it('draws a focus, refocuses on a click that reveals the record, finds, follows edits and keeps the last good parse', async () => {
    await resourceGraphScenario();
  });

  it('keeps each file its depth, opens an overview group on a click, and draws a file no editor holds from disk as it changes', async () => {
    await resourceGraphLargeScenario();
  });
});
