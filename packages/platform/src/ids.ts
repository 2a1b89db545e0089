/**
 * @module ids
 * Prefixed random identifiers: `usr_`, `org_`, `vc_`, … followed by 128 random
 * bits in lowercase Crockford base32 (26 characters), so they sort nothing and
 * reveal nothing.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${base32(randomBytes(16))}`;
}

const ID_SHAPE = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/;

/** True when `value` looks like an id of that prefix; checks shape only, not existence. */
export function isId(value: unknown, prefix: string): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && ID_SHAPE.test(value);
}
