/**
 * What `quota-state` runs (dist/cli/quota-state.js): the CLI's bundle with a V8 code cache
 * (server/codeCache.ts), so that a check of a small file in CI spends its time on the check.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../shared/node/codeCache';

runWithCodeCache(join(__dirname, 'quotaStateMain.js'));
