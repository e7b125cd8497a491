/**
 * What Node runs to start the language server (dist/server/server.js): the server's bundle with a
 * V8 code cache, so that a start spends its time on the first diagnostics rather than on compiling.
 */
import { join } from 'node:path';
import { runWithCodeCache } from '../shared/node/codeCache';

runWithCodeCache(join(__dirname, 'languageServer.js'), undefined, { refreshWhenGrown: true });
