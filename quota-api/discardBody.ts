import type { IncomingMessage } from 'node:http';

/**
 * Reads and throws away what is left of a request body that was refused, so that a client
 * still sending it can finish and then read the answer. Answering first and closing the
 * connection makes the client's next write fail (EPIPE) before it has read the 413, so the
 * client sees a broken connection instead of the error. A body declared, or running, beyond
 * `limit` bytes is not waited for: that client gets the answer and a closed connection.
 */
export function discardRemainingBody(raw: IncomingMessage, limit: number): Promise<void> {
  return new Promise((resolve) => {
    if (raw.complete || raw.readableEnded || raw.destroyed || Number(raw.headers['content-length']) > limit) {
      resolve();
      return;
    }
    let discarded = 0;
    const finish = () => {
      raw.off('data', count);
      raw.off('end', finish);
      raw.off('error', finish);
      raw.off('close', finish);
      resolve();
    };
    const count = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit) finish();
    };
    raw.on('data', count);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}
