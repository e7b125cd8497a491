// Types for postgres.mjs, which the TypeScript tests import.
export declare const POSTGRES_TEST_SUPERUSER: string;
export declare function ensurePostgres(options?: { log?: (line: string) => void }): string;
export interface PostgresServer {
  host: string;
  port: number;
  /** Needs no password over TCP; every other role signs in with SCRAM. */
  superuser: string;
  dataDir: string;
  /** Runs SQL as the superuser (psql over TCP, in `database`, else postgres); returns psql's unaligned output. */
  sql(text: string, database?: string): string;
  createDatabase(name: string): void;
  /** A role that signs in with a password, allowed to create tables in `database`'s public schema. */
  createRole(name: string, password: string, database?: string): void;
  /** Stops the server (fast shutdown) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server, keeping its data (start() brings it back). */
  halt(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}
export declare function startPostgres(options?: { log?: (line: string) => void; superuser?: string }): Promise<PostgresServer>;
