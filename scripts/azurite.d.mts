// Types for azurite.mjs, which the TypeScript tests import.
export declare const AZURITE_VERSION: string;
export declare const AZURITE_ACCOUNT: string;
export declare const AZURITE_ACCOUNT_KEY: string;
export declare function ensureAzurite(): string;
export interface AzuriteServer {
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  /** `127.0.0.1:PORT`, gocloud's `domain=` */
  host: string;
  port: number;
  account: string;
  accountKey: string;
  /** `http://127.0.0.1:PORT/devstoreaccount1` */
  serviceUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}
export declare function startAzurite(options?: { log?: (line: string) => void; timeoutMs?: number; inMemory?: boolean }): Promise<AzuriteServer>;
export declare function azuriteBackend(server: { host: string; account: string; accountKey: string }, container: string): { url: string; env: Record<string, string> };
export declare function createContainer(server: { serviceUrl: string; account: string; accountKey: string }, name: string): Promise<void>;
