/**
 * `azblob://` in the bench's remote figures (remoteFigures.ts): an Azurite server with an empty
 * container, reached with the emulator's documented key.
 */
import { azuriteBackend, createContainer, startAzurite } from '../../scripts/azurite.mjs';
import type { RemoteBenchScheme } from './remoteFigures';

export const azblobBenchScheme: RemoteBenchScheme = {
  scheme: 'azblob',
  async start(_scratch, log) {
    const server = await startAzurite({ log });
    try {
      await createContainer(server, 'scale');
    } catch (error) {
      await server.stop();
      throw error;
    }
    return { ...azuriteBackend(server, 'scale'), stop: () => server.stop() };
  },
};
