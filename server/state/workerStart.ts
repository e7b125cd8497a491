/**
 * What the analysis worker thread runs (dist/server/stateWorker.js): the worker's bundle with a V8
 * code cache, as the server itself starts (server/codeCache.ts), so that a large document opened at
 * start waits less for the worker.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../../shared/node/codeCache';

/** The worker lives as long as the server, but ends without an `exit` event: its cache is written this soon. */
const WORKER_CACHE_AFTER_MS = 2000;

runWithCodeCache(join(__dirname, 'analysisWorker.js'), undefined, { writeAfterMs: WORKER_CACHE_AFTER_MS });
