// Types for pulumi-cli.mjs, which the TypeScript tests import.
export declare const PULUMI_MODULE: string;
export declare const PULUMI_VERSION: string;
export declare function goCommand(): string | undefined;
export declare function cacheRoot(): string;
export declare function ensurePulumi(options?: { log?: (line: string) => void }): { pulumi: string; judge: string; version: string };
export declare function hermeticEnv(base?: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; cleanup: () => void };
export declare function pulumiBuildKey(): string;
export declare function withLock<T>(lock: string, body: () => T, options?: { onWait?: () => void }): T;
export declare function isLoopbackPostgres(url: string, env?: NodeJS.ProcessEnv): boolean;
