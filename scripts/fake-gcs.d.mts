// Types for fake-gcs.mjs, which the TypeScript tests import.
export declare const FAKE_GCS_MODULE: string;
export declare const FAKE_GCS_VERSION: string;
export declare function fakeGcsCacheRoot(): string;
export declare function ensureFakeGcs(options?: { log?: (line: string) => void }): string;
/** A running fake-gcs-server: `host` is what STORAGE_EMULATOR_HOST takes (`127.0.0.1:PORT`), `endpoint` the same with http://. */
export interface FakeGcsServer {
  endpoint: string;
  host: string;
  port: number;
  stop(): Promise<void>;
}
export declare function startFakeGcs(options?: { log?: (line: string) => void; buckets?: string[]; timeoutMs?: number }): Promise<FakeGcsServer>;
export declare function createGcsBucket(server: { endpoint: string }, name: string): Promise<void>;
