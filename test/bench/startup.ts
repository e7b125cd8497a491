/**
 * Server start → first diagnostics: spawns the built server (dist/server/server.js --stdio), sends
 * initialize, initialized and didOpen of a small file, and times from spawn to the first
 * publishDiagnostics for it. The baseline is a bare `node -e 0` spawned the same way.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const SERVER = resolve(__dirname, '..', '..', 'dist', 'server', 'server.js');

function frame(message: unknown): string {
  const body = JSON.stringify({ jsonrpc: '2.0', ...(message as object) });
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Milliseconds from spawn until the server publishes diagnostics for `uri`. */
export function timeServerStart(uri: string, languageId: string, text: string, execArgv: string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...execArgv, SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'], env });
    let buffer = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('server start: no diagnostics within 30 s'));
    }, 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        const header = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
        if (!header) return;
        const bodyStart = header.index + header[0].length;
        const length = Number(header[1]);
        if (Buffer.byteLength(buffer.slice(bodyStart)) < length) return;
        const body = Buffer.from(buffer.slice(bodyStart)).subarray(0, length).toString();
        buffer = Buffer.from(buffer.slice(bodyStart)).subarray(length).toString();
        const message = JSON.parse(body) as { id?: number; method?: string; params?: { uri?: string } };
        if (message.method === 'textDocument/publishDiagnostics' && message.params?.uri === uri) {
          const ms = performance.now() - start;
          clearTimeout(timer);
          // `exit` lets the server end by itself (so --cpu-prof can write its profile); killed if it lingers.
          child.stdin.end(frame({ method: 'exit' }));
          setTimeout(() => child.kill(), 3000).unref();
          resolvePromise(ms);
          return;
        }
        // Answer the server's own requests (configuration, registration) with nothing.
        if (message.id !== undefined && message.method) child.stdin.write(frame({ id: message.id, result: message.method === 'workspace/configuration' ? [null] : null }));
      }
    });
    child.stdin.write(frame({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { settings: {} } } }));
    child.stdin.write(frame({ method: 'initialized', params: {} }));
    child.stdin.write(frame({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId, version: 1, text } } }));
  });
}

/** Milliseconds for `node -e 0` to start and exit, spawned the same way. */
export function timeBareNode(): Promise<number> {
  return new Promise((resolvePromise) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['-e', '0'], { stdio: ['pipe', 'pipe', 'ignore'] });
    child.on('exit', () => resolvePromise(performance.now() - start));
  });
}
