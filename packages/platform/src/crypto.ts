/**
 * @module crypto
 * Secrets handled the same way everywhere: bearer tokens are random, stored only
 * as SHA-256 hashes, and compared in constant time.
 */
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** One-shot `crypto.hash`: about a third of the CPU of `createHash().update().digest()` for a token. */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

/** The stored form of a bearer token: lowercase hex SHA-256. */
export const hashToken = sha256Hex;

/** A new bearer secret: `<prefix>_` plus 256 random bits in base64url. */
export function newSecretToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Compares two strings without leaking where they differ (or, beyond that, their length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = hash('sha256', a, 'buffer');
  const right = hash('sha256', b, 'buffer');
  return timingSafeEqual(left, right) && a.length === b.length;
}
