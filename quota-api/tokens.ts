/**
 * Access tokens: 40 random hex characters (the shape of Forgejo's tokens). Only the SHA-256
 * of a token is stored, so a copy of the database does not give access to the API.
 */
import { createHash, randomBytes } from 'node:crypto';

export function generateToken(): string {
  return randomBytes(20).toString('hex');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
