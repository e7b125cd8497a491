/**
 * The remote schemes of the bench's remote figures (remoteFigures.ts), each on its real test server
 * with an empty backend: Azurite (reached with the emulator's documented key), fake-gcs-server (Pulumi's
 * and the SDK's emulator variable, a token the emulator ignores) and PostgreSQL (a fresh database).
 */
import { azuriteBackend, createContainer, startAzurite } from '../../scripts/azurite.mjs';
import { createGcsBucket, startFakeGcs } from '../../scripts/fake-gcs.mjs';
import { startPostgres } from '../../scripts/postgres.mjs';
import type { RemoteBenchScheme } from './remoteFigures';

/** Runs `prepare` on a started server; stops it when that fails. */
async function prepared<T extends { stop(): Promise<void> }>(server: T, prepare: () => Promise<void> | void): Promise<T> {
  try {
    await prepare();
    return server;
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export const REMOTE_BENCH_SCHEMES: readonly RemoteBenchScheme[] = [
  {
    scheme: 'azblob',
    async start(_scratch, log) {
      const server = await startAzurite({ log, inMemory: true });
      await prepared(server, () => createContainer(server, 'scale'));
      return { ...azuriteBackend(server, 'scale'), stop: () => server.stop() };
    },
  },
  {
    scheme: 'gs',
    async start(_scratch, log) {
      const server = await startFakeGcs({ log });
      await prepared(server, () => createGcsBucket(server, 'scale'));
      return { url: 'gs://scale', env: { STORAGE_EMULATOR_HOST: server.host, GOOGLE_OAUTH_ACCESS_TOKEN: 'x' }, stop: () => server.stop() };
    },
  },
  {
    scheme: 'postgres',
    async start(_scratch, log) {
      const server = await startPostgres({ log });
      await prepared(server, () => server.createDatabase('scale'));
      return { url: `postgres://${server.superuser}@127.0.0.1:${server.port}/scale?sslmode=disable`, env: {}, stop: () => server.stop() };
    },
  },
];
