/** URLs handed out in bodies and headers are built from the address the client used. */
import type { FastifyRequest } from 'fastify';

/** `http://host:port/`: the base of every URL we hand out (Forgejo's AppURL). */
export function appUrlOf(request: FastifyRequest): string {
  const host = typeof request.host === 'string' && request.host !== '' ? request.host : 'localhost';
  return `${request.protocol}://${host}/`;
}
