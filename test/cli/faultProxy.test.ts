/**
 * The fault proxy (test/helpers/faultProxy.ts) itself, in front of a plain node:http server: pass
 * forwards and lists each request's first line, also on a keep-alive connection and across odd
 * splits of the stream; delay holds the answer back; stall never answers; cut takes a connection
 * down at once, after some bytes, or only on a matching request (a GET passes, a large PUT is cut
 * midway); close ends everything. No assertion bounds a duration from above.
 */
import { strict as assert } from 'node:assert';
import { Agent, createServer, request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startFaultProxy, type FaultProxy } from '../helpers/faultProxy';

/** What the upstream got of one request: its first line and body bytes, and whether the body came whole. */
interface Seen {
  name: string;
  bytes: number;
  complete: boolean;
}

interface Answer {
  status: number;
  body: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (within the test's timeout) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(10);
}

function send(proxy: FaultProxy, method: string, path: string, options: { body?: string | Buffer; agent?: Agent; timeoutMs?: number } = {}): Promise<Answer> {
  const { body, agent, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request({ host: '127.0.0.1', port: proxy.port, method, path, headers, agent: agent ?? false, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Writes `payload` through a raw connection in pieces of `size` bytes (a pause between them) and returns all it gets back until the close. */
async function rawExchange(proxy: FaultProxy, payload: string, size: number): Promise<string> {
  const socket: Socket = connect(proxy.port, '127.0.0.1');
  socket.setNoDelay(true);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve, reject) => {
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  for (let at = 0; at < payload.length; at += size) {
    socket.write(payload.slice(at, at + size));
    await sleep(1);
  }
  await closed;
  return Buffer.concat(chunks).toString('latin1');
}

describe('test helper: the fault proxy', function () {
  let upstream: Server;
  let upstreamPort: number;
  const seen: Seen[] = [];
  const upstreamSockets = new Set<Socket>();
  let proxy: FaultProxy;
  let agent: Agent;

  before(async () => {
    upstream = createServer((req, res) => {
      const record: Seen = { name: `${req.method} ${req.url}`, bytes: 0, complete: false };
      seen.push(record);
      req.on('data', (chunk: Buffer) => (record.bytes += chunk.length));
      req.on('end', () => {
        record.complete = true;
        res.end(`${record.name} ${record.bytes}`);
      });
    });
    upstream.on('connection', (socket) => {
      upstreamSockets.add(socket);
      socket.on('close', () => upstreamSockets.delete(socket));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamPort = (upstream.address() as { port: number }).port;
  });

  after(async () => {
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  beforeEach(async () => {
    // The previous test's connections are gone before this one counts anything.
    await until(() => upstreamSockets.size === 0);
    seen.length = 0;
    proxy = await startFaultProxy({ host: '127.0.0.1', port: upstreamPort });
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });

  afterEach(async () => {
    agent.destroy();
    await proxy.close();
  });

  it('passes requests on one keep-alive connection and lists their first lines', async () => {
    assert.equal(proxy.endpoint, `http://127.0.0.1:${proxy.port}`);
    assert.deepEqual(await send(proxy, 'GET', '/a', { agent }), { status: 200, body: 'GET /a 0' });
    assert.deepEqual(await send(proxy, 'PUT', '/bucket/key', { agent, body: 'hello' }), { status: 200, body: 'PUT /bucket/key 5' });
    assert.deepEqual(await send(proxy, 'GET', '/c?list-type=2', { agent }), { status: 200, body: 'GET /c?list-type=2 0' });
    assert.deepEqual(proxy.requests, ['GET /a', 'PUT /bucket/key', 'GET /c?list-type=2']);
    assert.equal(proxy.connections, 1);
  });

  it('frames requests however the stream is split: bodies that look like request lines, chunked bodies, trailers', async () => {
    const fake = 'GET /fake HTTP/1.1\r\n\r\n';
    const chunk = 'DELETE /fake2 HTTP/1.1\r\n';
    const payload = [
      `GET /split HTTP/1.1\r\nHost: t\r\nContent-Length: ${fake.length}\r\n\r\n${fake}`,
      `PUT /chunked HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n5;ext=1\r\nhello\r\n0\r\nX-Trailer: 1\r\n\r\n`,
      '\r\nHEAD /last HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n',
    ].join('');
    for (const size of [1, 7, payload.length]) {
      proxy.requests.length = 0;
      seen.length = 0;
      const answer = await rawExchange(proxy, payload, size);
      assert.equal(answer.match(/HTTP\/1\.1 200 OK/g)?.length, 3, `pieces of ${size}: ${answer}`);
      assert.deepEqual(proxy.requests, ['GET /split', 'PUT /chunked', 'HEAD /last'], `pieces of ${size}`);
      assert.deepEqual(
        seen.map((s) => `${s.name} ${s.bytes}`),
        [`GET /split ${fake.length}`, `PUT /chunked ${chunk.length + 5}`, 'HEAD /last 0'],
      );
    }
  });

  it('delays each chunk by the delay', async () => {
    const ms = 150;
    proxy.delay(ms);
    const started = performance.now();
    assert.deepEqual(await send(proxy, 'GET', '/slow'), { status: 200, body: 'GET /slow 0' });
    assert.ok(performance.now() - started >= ms, `answered after ${performance.now() - started} ms`);
    proxy.pass();
    assert.equal((await send(proxy, 'GET', '/fast')).status, 200);
  });

  it('stalls: connections and bytes are taken, nothing is forwarded, a client timeout fires; pass() goes on', async () => {
    proxy.stall();
    await assert.rejects(send(proxy, 'PUT', '/stalled', { body: 'x'.repeat(1000), timeoutMs: 300 }), /PUT \/stalled timed out/);
    assert.equal(proxy.connections, 1);
    assert.deepEqual(proxy.requests, ['PUT /stalled']);
    assert.deepEqual(seen, []);
    proxy.pass();
    assert.deepEqual(await send(proxy, 'GET', '/after'), { status: 200, body: 'GET /after 0' });
  });

  it('cuts a matching PUT midway while GETs pass, on the same keep-alive connection', async () => {
    proxy.cut({ when: /^PUT /, afterBytes: 64 * 1024 });
    assert.deepEqual(await send(proxy, 'GET', '/read', { agent }), { status: 200, body: 'GET /read 0' });
    const size = 1024 * 1024;
    await assert.rejects(send(proxy, 'PUT', '/write', { agent, body: Buffer.alloc(size, 'a') }));
    // The cut took down the connection both requests shared: once the upstream's side is closed too, it has all it will get.
    await until(() => upstreamSockets.size === 0);
    assert.deepEqual(proxy.requests, ['GET /read', 'PUT /write']);
    assert.equal(proxy.connections, 1);
    const write = seen.find((s) => s.name === 'PUT /write');
    assert.ok(write === undefined || (write.bytes < size && !write.complete), `the upstream got ${write?.bytes} of ${size} bytes`);
    // Not once: reads still pass and the next write is cut again.
    assert.equal((await send(proxy, 'GET', '/read-again', { agent })).status, 200);
    await assert.rejects(send(proxy, 'PUT', '/write-again', { agent, body: Buffer.alloc(size, 'b') }));
  });

  it('cuts once: the first matching request never reaches the server, the next passes', async () => {
    proxy.cut({ when: /^PUT \/bucket\//, once: true });
    await assert.rejects(send(proxy, 'PUT', '/bucket/one', { body: 'one' }));
    assert.deepEqual(seen, []);
    assert.deepEqual(await send(proxy, 'PUT', '/bucket/two', { body: 'two' }), { status: 200, body: 'PUT /bucket/two 3' });
    assert.deepEqual(proxy.requests, ['PUT /bucket/one', 'PUT /bucket/two']);
  });

  it('cuts without a filter: open connections at once, new ones at once or after some bytes', async () => {
    assert.equal((await send(proxy, 'GET', '/warm', { agent })).status, 200);
    const [idle] = upstreamSockets;
    const idleClosed = new Promise((resolve) => idle.once('close', resolve));
    proxy.cut();
    await idleClosed;
    await assert.rejects(send(proxy, 'GET', '/refused'));
    assert.deepEqual(proxy.requests, ['GET /warm']);

    proxy.cut({ afterBytes: 200 });
    await assert.rejects(send(proxy, 'PUT', '/partial', { body: 'p'.repeat(10_000) }));
    await until(() => upstreamSockets.size === 0);
    const partial = seen.find((s) => s.name === 'PUT /partial');
    assert.ok(partial === undefined || partial.bytes < 200, `the upstream got ${partial?.bytes} body bytes`);

    proxy.pass();
    assert.equal((await send(proxy, 'GET', '/whole')).status, 200);
  });

  it('close() ends open connections and stops listening', async () => {
    const socket = connect(proxy.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.on('error', () => undefined);
    await until(() => proxy.connections === 1);
    await proxy.close();
    await closed;
    await assert.rejects(send(proxy, 'GET', '/gone'), /ECONNREFUSED/);
  });
});
