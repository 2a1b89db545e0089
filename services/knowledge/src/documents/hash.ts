/**
 * @module documents/hash
 * The push `hash`: lowercase hex SHA-256 of the UTF-8 content, optionally written
 * `sha256-<hex>`. The same hash names a revision in a review decision (`revision`).
 */
import { sha256Hex } from '@xv/platform';

const HASH = /^(?:sha256-)?([0-9a-fA-F]{64})$/;

export function contentHash(content: string): string {
  return sha256Hex(Buffer.from(content, 'utf8'));
}

/** The hash of a retirement revision: its content is empty, as the document it leaves. */
export const RETIREMENT_HASH = contentHash('');

/** The hex digest a client sent, or undefined when it is not a SHA-256 hash at all. */
export function parseHash(value: string): string | undefined {
  return HASH.exec(value)?.[1]?.toLowerCase();
}
