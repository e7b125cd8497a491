/**
 * Access tokens: 40 random hex characters (the shape of Forgejo's tokens). Only the SHA-256
 * of a token is stored, so a copy of the database does not give access to the API.
 */
import { hash, randomBytes } from 'node:crypto';

export function generateToken(): string {
  return randomBytes(20).toString('hex');
}

/** One-shot `hash`: half the cost of a `createHash` object, and every request that carries a token pays it. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
