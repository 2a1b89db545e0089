/**
 * @module crypto/canonical
 * The exact bytes XV hashes: a string as its UTF-8 bytes, any other JSON value as
 * its RFC 8785 (JCS) canonical form. Hashes are written `sha256-<lowercase hex>`.
 */
import { hash } from 'node:crypto';
import { canonicalJson, withinJsonDepth } from '@xv/platform';
import { errors } from '../errors.js';

/** Deeper JSON than this is refused before canonicalisation (which recurses). */
export const MAX_JSON_DEPTH = 64;

const encoder = new TextEncoder();

/** RFC 8785 bytes of a JSON value. */
export function canonicalBytes(value: unknown): Uint8Array {
  assertJsonDepth(value);
  return encoder.encode(canonicalJson(value));
}

/** The bytes of a sealed `output` or `input`: a string as UTF-8, anything else as RFC 8785. */
export function contentBytes(value: unknown): Uint8Array {
  return typeof value === 'string' ? encoder.encode(value) : canonicalBytes(value);
}

export function sha256(bytes: Uint8Array): Uint8Array {
  return hash('sha256', bytes, 'buffer');
}

export function taggedHash(digest: Uint8Array): string {
  return `sha256-${Buffer.from(digest).toString('hex')}`;
}

/** `sha256-<hex>` of a sealed value. */
export function hashContent(value: unknown): string {
  return taggedHash(sha256(contentBytes(value)));
}

/** The 32 digest bytes of a `sha256-<hex>` string, or null when it is not one. */
export function digestOf(tagged: unknown): Uint8Array | null {
  if (typeof tagged !== 'string' || !/^sha256-[0-9a-f]{64}$/.test(tagged)) return null;
  return Buffer.from(tagged.slice(7), 'hex');
}

/** Refuses (400 `too_deep`) a value nested deeper than MAX_JSON_DEPTH, before anything recursive sees it. */
export function assertJsonDepth(value: unknown) {
  if (!withinJsonDepth(value, MAX_JSON_DEPTH))
    throw errors.too_deep(`JSON values may be nested at most ${MAX_JSON_DEPTH} deep.`);
}
