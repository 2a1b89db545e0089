/**
 * @module credentials/sd-jwt/sd-jwt
 * SD-JWT (RFC 9901) without the signature, where `@sd-jwt/*` falls short (see
 * docs/credentials.md, "Libraries and gaps"): splitting a presentation into its
 * parts with size limits, and rebuilding the disclosed claims with every check the
 * RFC asks of a verifier (§7.1), which the library skips: each
 * digest appears once, each Disclosure is referenced exactly once, a Disclosure
 * never overrides a claim that is already there, `_sd` and `...` are not claim
 * names, object Disclosures only under `_sd`, array ones only in `{"...": d}`.
 */
import { randomBytes } from 'node:crypto';
import { suspendStackTraces } from '@xv/platform';
import { fromB64url, isJsonObject, type JsonObject, sha256B64url } from './jws.js';

export const SD_ALG = 'sha-256';
/** Deeper nesting than this is refused rather than walked. */
const MAX_DEPTH = 32;
const MAX_DISCLOSURES = 256;

/** A verdict on a token (malformed, a bad Disclosure): no stack trace is captured. */
export class SdJwtError extends Error {
  readonly reason: string;

  constructor(reason: string, message: string) {
    const restore = suspendStackTraces();
    super(message);
    restore();
    this.name = 'SdJwtError';
    this.reason = reason;
  }
}

export function digestOf(disclosure: string): string {
  return sha256B64url(disclosure);
}

const SALT_BYTES = 16;
/** Salts are cut from one random block at a time: one call into the CSPRNG per 256 salts, not per salt. */
let saltBlock = Buffer.alloc(0);
let saltOffset = 0;

/** A fresh 128-bit salt, base64url. */
export function newSalt(): string {
  if (saltOffset + SALT_BYTES > saltBlock.length) {
    saltBlock = randomBytes(SALT_BYTES * 256);
    saltOffset = 0;
  }
  saltOffset += SALT_BYTES;
  return saltBlock.toString('base64url', saltOffset - SALT_BYTES, saltOffset);
}

/** An object-property Disclosure: base64url of the JSON array `[salt, name, value]`. */
export function objectDisclosure(name: string, value: unknown, salt = newSalt()): string {
  return Buffer.from(JSON.stringify([salt, name, value])).toString('base64url');
}

/**
 * Makes the named top-level claims of `claims` selectively disclosable (a nested
 * object named in `nested` gets its own properties made disclosable as well).
 * Digests are sorted so their order reveals nothing about the claims'. (The issuer
 * packs with this rather than `@sd-jwt/sd-jwt-vc`, which costs twice as much:
 * docs/credentials.md, "Libraries and gaps".)
 */
export function packDisclosures(
  claims: JsonObject,
  disclosable: readonly string[],
  nested: readonly string[] = [],
): { payload: JsonObject; disclosures: string[] } {
  const disclosures: string[] = [];
  const pack = (object: JsonObject, names: readonly string[]) => {
    const out: JsonObject = {};
    const digests: string[] = [];
    for (const [name, raw] of Object.entries(object)) {
      const value =
        nested.includes(name) && isJsonObject(raw) && object === claims ? pack(raw, Object.keys(raw)) : raw;
      if (names.includes(name)) {
        const disclosure = objectDisclosure(name, value);
        disclosures.push(disclosure);
        digests.push(digestOf(disclosure));
      } else {
        out[name] = value;
      }
    }
    if (digests.length > 0) out._sd = digests.sort();
    return out;
  };
  const payload = pack(claims, disclosable);
  return { payload: { ...payload, _sd_alg: SD_ALG }, disclosures };
}

export interface SdJwtParts {
  /** The Issuer-signed JWT. */
  jwt: string;
  disclosures: string[];
  /** The Key Binding JWT, when the presentation carries one. */
  kbJwt: string | undefined;
  /** Everything up to and including the last `~` before the KB-JWT: what `sd_hash` covers. */
  presentation: string;
}

/** Splits `<jwt>~<d1>~…~<dn>~[<kb-jwt>]`. A bare JWT counts as an SD-JWT without Disclosures. */
export function splitSdJwt(token: string): SdJwtParts {
  const text = token.trim();
  if (!text.includes('~')) return { jwt: text, disclosures: [], kbJwt: undefined, presentation: `${text}~` };
  const parts = text.split('~');
  const jwt = parts[0]!;
  const last = parts[parts.length - 1]!;
  const disclosures = parts.slice(1, -1);
  if (disclosures.some((d) => d.length === 0))
    throw new SdJwtError('malformed', 'The SD-JWT has an empty Disclosure.');
  if (disclosures.length > MAX_DISCLOSURES)
    throw new SdJwtError('malformed', 'The SD-JWT has too many Disclosures.');
  const presentation = text.slice(0, text.length - last.length);
  return { jwt, disclosures, kbJwt: last.length > 0 ? last : undefined, presentation };
}

interface DecodedDisclosure {
  encoded: string;
  salt: string;
  /** Absent for an array-element Disclosure. */
  name?: string;
  value: unknown;
  used: boolean;
}

function decodeDisclosure(encoded: string): DecodedDisclosure {
  const bytes = fromB64url(encoded);
  let array: unknown;
  try {
    array = bytes ? JSON.parse(bytes.toString('utf8')) : undefined;
  } catch {
    array = undefined;
  }
  if (!Array.isArray(array) || (array.length !== 2 && array.length !== 3) || typeof array[0] !== 'string')
    throw new SdJwtError('disclosure_invalid', 'A Disclosure is not a JSON array of salt, [name,] value.');
  if (array.length === 2) return { encoded, salt: array[0], value: array[1], used: false };
  if (typeof array[1] !== 'string')
    throw new SdJwtError(
      'disclosure_invalid',
      'A Disclosure names its claim with something other than a string.',
    );
  return { encoded, salt: array[0], name: array[1], value: array[2], used: false };
}

/**
 * Rebuilds the claims an SD-JWT discloses from its signed payload and Disclosures.
 * `reserved` names top-level claims that must never come from a Disclosure.
 */
export function discloseClaims(
  signedPayload: JsonObject,
  encodedDisclosures: readonly string[],
  reserved: readonly string[] = [],
): JsonObject {
  const alg = signedPayload._sd_alg ?? SD_ALG;
  if (alg !== SD_ALG)
    throw new SdJwtError('unsupported_sd_alg', `The digest algorithm ${String(alg)} is not supported.`);
  const byDigest = new Map<string, DecodedDisclosure>();
  for (const encoded of encodedDisclosures) {
    const digest = digestOf(encoded);
    if (byDigest.has(digest))
      throw new SdJwtError('disclosure_duplicate', 'The same Disclosure is given twice.');
    byDigest.set(digest, decodeDisclosure(encoded));
  }
  const seenDigests = new Set<string>();
  const claim = (digest: unknown): DecodedDisclosure | undefined => {
    if (typeof digest !== 'string') throw new SdJwtError('malformed', 'A digest is not a string.');
    if (seenDigests.has(digest)) throw new SdJwtError('digest_duplicate', 'A digest appears more than once.');
    seenDigests.add(digest);
    const disclosure = byDigest.get(digest);
    if (disclosure) disclosure.used = true;
    return disclosure;
  };

  const walk = (value: unknown, depth: number, topLevel: boolean): unknown => {
    if (depth > MAX_DEPTH) throw new SdJwtError('malformed', 'The credential is nested too deeply.');
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const element of value) {
        if (isJsonObject(element) && '...' in element) {
          if (Object.keys(element).length !== 1)
            throw new SdJwtError('malformed', 'An array digest object has members besides "...".');
          const disclosure = claim(element['...']);
          if (!disclosure) continue; // a decoy, or an element the holder keeps to itself
          if (disclosure.name !== undefined)
            throw new SdJwtError(
              'disclosure_invalid',
              'An object-property Disclosure is referenced from an array.',
            );
          out.push(walk(disclosure.value, depth + 1, false));
        } else {
          out.push(walk(element, depth + 1, false));
        }
      }
      return out;
    }
    if (!isJsonObject(value)) return value;
    const out: JsonObject = {};
    for (const [name, member] of Object.entries(value)) {
      if (name === '_sd' || (topLevel && name === '_sd_alg')) continue;
      out[name] = walk(member, depth + 1, false);
    }
    const sd = value._sd;
    if (sd !== undefined) {
      if (!Array.isArray(sd)) throw new SdJwtError('malformed', '_sd is not an array.');
      for (const digest of sd) {
        const disclosure = claim(digest);
        if (!disclosure) continue;
        const name = disclosure.name;
        if (name === undefined)
          throw new SdJwtError('disclosure_invalid', 'An array-element Disclosure is referenced from _sd.');
        if (name === '_sd' || name === '...')
          throw new SdJwtError('disclosure_invalid', `A Disclosure uses the reserved name ${name}.`);
        if (topLevel && reserved.includes(name))
          throw new SdJwtError(
            'disclosure_forbidden',
            `The claim ${name} must not be selectively disclosed.`,
          );
        if (Object.hasOwn(out, name))
          throw new SdJwtError('disclosure_override', `A Disclosure would override the claim ${name}.`);
        out[name] = walk(disclosure.value, depth + 1, false);
      }
    }
    return out;
  };

  const disclosed = walk(signedPayload, 0, true) as JsonObject;
  for (const disclosure of byDigest.values())
    if (!disclosure.used)
      throw new SdJwtError('disclosure_unreferenced', 'A Disclosure is not referenced by the credential.');
  return disclosed;
}

/** The `sd_hash` a Key Binding JWT must carry for `presentation` (everything before the KB-JWT). */
export function sdHashOf(presentation: string): string {
  return sha256B64url(presentation);
}
