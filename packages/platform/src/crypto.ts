/**
 * @module crypto
 * Secrets handled the same way everywhere: bearer tokens are random, stored only
 * as SHA-256 hashes, and compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The stored form of a bearer token: lowercase hex SHA-256. */
export const hashToken = sha256Hex;

/** A new bearer secret: `<prefix>_` plus 256 random bits in base64url. */
export function newSecretToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** Compares two strings without leaking where they differ (or, beyond that, their length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}
