// Types for minio.mjs, which the TypeScript tests import.
export declare const MINIO_MODULE: string;
export declare const MINIO_VERSION: string;
export declare const MINIO_REGION: string;
export declare const MINIO_TEST_ACCESS_KEY: string;
export declare const MINIO_TEST_SECRET_KEY: string;
export declare function minioCacheRoot(): string;
export declare function ensureMinio(options?: { log?: (line: string) => void }): string;
/** Where and how to reach an S3 server: what startMinio() returns is one. */
export interface S3Server {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region?: string;
}
export interface MinioServer extends S3Server {
  port: number;
  region: string;
  dataDir: string;
  stop(): Promise<void>;
}
export declare function startMinio(options?: { log?: (line: string) => void; accessKey?: string; secretKey?: string; timeoutMs?: number }): Promise<MinioServer>;
export declare function signedS3Request(
  server: S3Server,
  method: string,
  path: string,
  query?: Record<string, string>,
  body?: string | Buffer,
): Promise<{ status: number; headers: import('node:http').IncomingHttpHeaders; body: string }>;
export declare function createBucket(server: S3Server, name: string): Promise<void>;
