/**
 * A TCP proxy for fault tests (against MinIO, or any HTTP/1.1 server): it sits between a client and
 * an upstream host:port on a free 127.0.0.1 port and, on command, forwards, delays, stalls or cuts.
 * HTTP keep-alive puts many requests on one connection, so the client→server stream is framed as
 * HTTP/1.1 requests (request line, head, a Content-Length or chunked body): each request's first
 * line is seen at its boundary, `cut({ when })` hits exactly the request it names, and a body that
 * happens to hold text like a request line is never taken for one. A stream that does not parse as
 * HTTP/1.1 is still forwarded, only without request lines from there on.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface FaultProxy {
  port: number;
  /** `http://127.0.0.1:PORT` */
  endpoint: string;
  /** Forward everything (the default): what stall() held goes on, a pending cut is dropped. */
  pass(): void;
  /** Delay each chunk in both directions by ms. */
  delay(ms: number): void;
  /** Accept connections and bytes but forward nothing and never answer (a stalled server); pass() or delay() releases what was held. */
  stall(): void;
  /**
   * Cut (destroy, both sides) connections. Without `when`: every open connection and each new one once `afterBytes`
   * more bytes of client→server data have passed in it (0: at once). With `when`: a connection once a request whose
   * first line (as `requests` lists it, e.g. 'PUT /bucket/key') matches has passed `afterBytes` bytes, its head
   * included (0: none of it reaches the server); a request shorter than that passes whole and its connection is cut
   * right after it, racing the server's answer. `once`: back to pass() after the first cut.
   */
  cut(options?: { afterBytes?: number; when?: RegExp; once?: boolean }): void;
  /** Each request's first line seen, in order, as 'METHOD target' (e.g. 'PUT /bucket/key'); held, delayed and cut ones included. */
  requests: string[];
  /** How many client connections were accepted. */
  readonly connections: number;
  /** Destroys every connection and closes the server. */
  close(): Promise<void>;
}

type Mode = { kind: 'pass' } | { kind: 'delay'; ms: number } | { kind: 'stall' } | { kind: 'cut'; afterBytes: number; when?: RegExp; once: boolean };

/** Longer than this, a request line or head is not HTTP/1.1 as a test client sends it: the stream goes on unframed. */
const MAX_LINE = 16 * 1024;
const MAX_HEAD = 256 * 1024;
/** A direction holding more than this (stalled or delayed) stops reading its source until it drains. */
const HIGH_WATER = 1024 * 1024;
const REQUEST_LINE = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/;

type FrameEvent = { type: 'start'; offset: number; name: string } | { type: 'end'; offset: number };

/**
 * Splits a client→server byte stream into HTTP/1.1 requests: `feed` tells where requests start (once
 * their whole first line is there) and end, and how much of the buffer it consumed; a partial request
 * line at the end is left over, for the caller to hand in again with the next bytes.
 */
class RequestFramer {
  private state: 'line' | 'head' | 'body' | 'chunkSize' | 'chunkData' | 'trailers' | 'opaque' = 'line';
  /** The head, a chunk-size line or the trailers read so far. */
  private text = '';
  /** Bytes left of the body or of the current chunk (its CRLF included). */
  private remaining = 0;

  feed(buf: Buffer): { events: FrameEvent[]; consumed: number } {
    const events: FrameEvent[] = [];
    let pos = 0;
    while (pos < buf.length && this.state !== 'opaque') {
      const next = this.step(buf, pos, events);
      if (next === undefined) return { events, consumed: pos };
      pos = next;
    }
    return { events, consumed: buf.length };
  }

  /** One step from pos: the position after it, or undefined when a partial request line waits for more bytes. */
  private step(buf: Buffer, pos: number, events: FrameEvent[]): number | undefined {
    switch (this.state) {
      case 'line':
        return this.requestLine(buf, pos, events);
      case 'head': {
        const after = this.blankLine(buf, pos);
        return after === undefined ? buf.length : this.afterHead(after, events);
      }
      case 'trailers': {
        const after = this.blankLine(buf, pos);
        return after === undefined ? buf.length : this.end(after, events);
      }
      case 'body':
      case 'chunkData': {
        const take = Math.min(this.remaining, buf.length - pos);
        this.remaining -= take;
        if (this.remaining > 0) return pos + take;
        if (this.state === 'body') return this.end(pos + take, events);
        this.state = 'chunkSize';
        this.text = '';
        return pos + take;
      }
      case 'chunkSize':
        return this.chunkSize(buf, pos);
      default:
        return buf.length;
    }
  }

  private requestLine(buf: Buffer, pos: number, events: FrameEvent[]): number | undefined {
    const eol = buf.indexOf('\r\n', pos, 'latin1');
    if (eol === -1) {
      if (buf.length - pos <= MAX_LINE) return undefined;
      this.state = 'opaque';
      return buf.length;
    }
    // Empty lines before a request are allowed (RFC 9112 §2.2).
    if (eol === pos) return pos + 2;
    const match = REQUEST_LINE.exec(buf.toString('latin1', pos, eol));
    if (!match) {
      this.state = 'opaque';
      return buf.length;
    }
    events.push({ type: 'start', offset: pos, name: `${match[1]} ${match[2]}` });
    // The head ends at a blank line, looked for from the request line's own CRLF on.
    this.state = 'head';
    this.text = '\r\n';
    return eol + 2;
  }

  /** Adds to `text` up to a blank line (CRLF CRLF): the position after it, or undefined when the whole buffer was taken. */
  private blankLine(buf: Buffer, pos: number): number | undefined {
    const before = this.text.length;
    this.text += buf.toString('latin1', pos);
    const end = this.text.indexOf('\r\n\r\n', Math.max(0, before - 3));
    if (end === -1) {
      if (this.text.length > MAX_HEAD) this.state = 'opaque';
      return undefined;
    }
    this.text = this.text.slice(0, end + 4);
    return pos + end + 4 - before;
  }

  /** The head is complete: which body follows, if any. */
  private afterHead(pos: number, events: FrameEvent[]): number {
    const head = this.text.toLowerCase();
    const length = /\r\ncontent-length:[ \t]*(\d+)/.exec(head);
    if (/\r\ntransfer-encoding:[^\r\n]*chunked/.test(head)) {
      this.state = 'chunkSize';
      this.text = '';
      return pos;
    }
    if (length && Number(length[1]) > 0) {
      this.state = 'body';
      this.remaining = Number(length[1]);
      return pos;
    }
    return this.end(pos, events);
  }

  private chunkSize(buf: Buffer, pos: number): number {
    const eol = buf.indexOf('\n', pos, 'latin1');
    this.text += buf.toString('latin1', pos, eol === -1 ? buf.length : eol + 1);
    if (eol === -1) {
      if (this.text.length > MAX_LINE) this.state = 'opaque';
      return buf.length;
    }
    const size = parseInt(this.text.split(';')[0].trim(), 16);
    if (Number.isNaN(size)) {
      this.state = 'opaque';
    } else if (size === 0) {
      this.state = 'trailers';
      this.text = '\r\n';
    } else {
      this.state = 'chunkData';
      this.remaining = size + 2;
    }
    return eol + 1;
  }

  private end(pos: number, events: FrameEvent[]): number {
    events.push({ type: 'end', offset: pos });
    this.state = 'line';
    this.text = '';
    return pos;
  }
}

/** Something to write in one direction once `due` (a Date.now() time; Infinity: held until released). */
interface LaneItem {
  chunk?: Buffer;
  /** End the destination after it. */
  end?: boolean;
  /** Cut the connection once this (last) chunk is written. */
  cut?: boolean;
  due: number;
}

/** One direction of a connection: items written in order, each no earlier than its due time, with backpressure both ways. */
class Lane {
  private items: LaneItem[] = [];
  private bytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private waitingDrain = false;
  private disposed = false;

  constructor(
    private readonly source: Socket,
    private readonly dest: Socket,
    private readonly onCut: () => void,
  ) {}

  push(item: LaneItem): void {
    this.items.push(item);
    this.bytes += item.chunk?.length ?? 0;
    this.pump();
  }

  /** Held items become due. */
  release(due: number): void {
    for (const item of this.items) if (item.due === Infinity) item.due = due;
    this.pump();
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.items = [];
  }

  private pump(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (!this.disposed && !this.waitingDrain && this.items.length > 0) {
      const wait = this.items[0].due - Date.now();
      if (wait > 0) {
        if (wait !== Infinity) this.timer = setTimeout(() => this.pump(), wait);
        break;
      }
      const item = this.items.shift()!;
      this.bytes -= item.chunk?.length ?? 0;
      if (item.cut) {
        this.dispose();
        if (item.chunk?.length && !this.dest.destroyed && !this.dest.writableEnded) this.dest.write(item.chunk, () => this.onCut());
        else this.onCut();
        return;
      }
      if (this.dest.destroyed || this.dest.writableEnded) continue;
      if (item.chunk && !this.dest.write(item.chunk)) {
        this.waitingDrain = true;
        this.dest.once('drain', () => {
          this.waitingDrain = false;
          this.pump();
        });
      }
      if (item.end) this.dest.end();
    }
    if (this.disposed) return;
    if (this.waitingDrain || this.bytes > HIGH_WATER) this.source.pause();
    else if (this.source.isPaused()) this.source.resume();
  }
}

interface Connection {
  client: Socket;
  upstream: Socket;
  toServer: Lane;
  toClient: Lane;
  framer: RequestFramer;
  /** The end of a partial request line, forwarded once its line is whole. */
  held: Buffer;
  /** Client→server bytes still to pass before the cut, when one is armed. */
  armed: number | undefined;
  /** The armed cut is a request's (`when`): it also falls at that request's end. */
  armedRequest: boolean;
  dead: boolean;
}

/** Starts a fault proxy on a free 127.0.0.1 port in front of `upstream`, forwarding everything until told otherwise. */
export async function startFaultProxy(upstream: { host: string; port: number }): Promise<FaultProxy> {
  let mode: Mode = { kind: 'pass' };
  let closed = false;
  let accepted = 0;
  const open = new Set<Connection>();
  const requests: string[] = [];

  const due = () => (mode.kind === 'stall' ? Infinity : mode.kind === 'delay' ? Date.now() + mode.ms : 0);

  function destroy(conn: Connection): void {
    conn.dead = true;
    conn.toServer.dispose();
    conn.toClient.dispose();
    conn.client.destroy();
    conn.upstream.destroy();
    open.delete(conn);
  }

  /** The cut is decided: what passed before it goes on, then both sides go; `once` returns to pass. */
  function cutAt(conn: Connection, data: Buffer | undefined): void {
    conn.dead = true;
    conn.client.pause();
    if (data) conn.toServer.push({ chunk: data, cut: true, due: due() });
    else destroy(conn);
    if (mode.kind === 'cut' && mode.once) setMode({ kind: 'pass' });
  }

  /** Where in `length` bytes (framed into `events`) an armed cut falls, if it does; records the request lines passed. */
  function findCut(conn: Connection, events: FrameEvent[], length: number): number | undefined {
    let pos = 0;
    for (const event of [...events, { type: 'eof' as const, offset: length }]) {
      if (conn.armed !== undefined) {
        if (conn.armed <= event.offset - pos) return pos + conn.armed;
        conn.armed -= event.offset - pos;
      }
      pos = event.offset;
      if (event.type === 'end' && conn.armedRequest) return pos;
      if (event.type !== 'start') continue;
      requests.push(event.name);
      if (mode.kind === 'cut' && mode.when && conn.armed === undefined) {
        mode.when.lastIndex = 0;
        if (mode.when.test(event.name)) {
          conn.armed = mode.afterBytes;
          conn.armedRequest = true;
        }
      }
    }
    return undefined;
  }

  function fromClient(conn: Connection, chunk: Buffer): void {
    if (conn.dead) return;
    const buf = conn.held.length > 0 ? Buffer.concat([conn.held, chunk]) : chunk;
    const { events, consumed } = conn.framer.feed(buf);
    conn.held = Buffer.from(buf.subarray(consumed));
    const data = buf.subarray(0, consumed);
    const cut = findCut(conn, events, data.length);
    if (cut !== undefined) cutAt(conn, data.subarray(0, cut));
    else if (data.length > 0) conn.toServer.push({ chunk: data, due: due() });
  }

  function setMode(next: Mode): void {
    mode = next;
    const releaseAt = due();
    for (const conn of [...open]) {
      conn.armed = undefined;
      conn.armedRequest = false;
      if (releaseAt !== Infinity) {
        conn.toServer.release(releaseAt);
        conn.toClient.release(releaseAt);
      }
    }
    if (next.kind !== 'cut' || next.when) return;
    const live = [...open].filter((conn) => !conn.dead);
    if (next.afterBytes > 0) {
      for (const conn of live) conn.armed = next.afterBytes;
    } else if (live.length > 0) {
      for (const conn of live) destroy(conn);
      if (next.once) setMode({ kind: 'pass' });
    }
  }

  function accept(client: Socket): void {
    accepted++;
    if (closed) {
      client.destroy();
      return;
    }
    const server = createConnection({ host: upstream.host, port: upstream.port, allowHalfOpen: true });
    client.setNoDelay(true);
    server.setNoDelay(true);
    const conn: Connection = {
      client,
      upstream: server,
      toServer: new Lane(client, server, () => destroy(conn)),
      toClient: new Lane(server, client, () => destroy(conn)),
      framer: new RequestFramer(),
      held: Buffer.alloc(0),
      armed: undefined,
      armedRequest: false,
      dead: false,
    };
    open.add(conn);
    for (const socket of [client, server]) {
      socket.on('error', () => destroy(conn));
      socket.on('close', (hadError) => {
        if (hadError || (client.destroyed && server.destroyed)) destroy(conn);
      });
    }
    client.on('data', (chunk: Buffer) => fromClient(conn, chunk));
    client.on('end', () => {
      if (conn.dead) return;
      conn.toServer.push({ chunk: conn.held.length > 0 ? conn.held : undefined, end: true, due: due() });
      conn.held = Buffer.alloc(0);
    });
    server.on('data', (chunk: Buffer) => {
      if (!conn.dead) conn.toClient.push({ chunk, due: due() });
    });
    server.on('end', () => {
      if (!conn.dead) conn.toClient.push({ end: true, due: due() });
    });
    if (mode.kind === 'cut' && !mode.when) {
      if (mode.afterBytes === 0) cutAt(conn, undefined);
      else conn.armed = mode.afterBytes;
    }
  }

  const server = createServer({ allowHalfOpen: true }, accept);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the fault proxy has no TCP address');
  const port = address.port;

  return {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    get connections() {
      return accepted;
    },
    pass: () => setMode({ kind: 'pass' }),
    delay: (ms) => setMode({ kind: 'delay', ms }),
    stall: () => setMode({ kind: 'stall' }),
    cut: (options = {}) => setMode({ kind: 'cut', afterBytes: options.afterBytes ?? 0, when: options.when, once: options.once ?? false }),
    close: () => {
      closed = true;
      for (const conn of [...open]) destroy(conn);
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
