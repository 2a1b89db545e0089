/**
 * @module credentials/sd-jwt/jws
 * Compact JWS with ES256 on node:crypto: signing, strict parsing and verification.
 * The only algorithm accepted anywhere in credentials is ES256 (ECDSA P-256 with
 * SHA-256): never `none`, never HMAC, never a key the token chooses for itself
 * unless the protocol says so (OpenID4VCI proofs, key-binding JWTs via `cnf.jwk`).
 */
import { createPublicKey, hash, type KeyObject, sign, verify } from 'node:crypto';

/** The JWS algorithms credentials, proofs and key-binding JWTs may use. */
export const ALLOWED_ALGS: readonly string[] = ['ES256'];

export interface PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  kid?: string;
  alg?: string;
  use?: string;
}

export type JsonObject = Record<string, unknown>;

export interface ParsedJws {
  header: JsonObject;
  payload: JsonObject;
  /** `<header>.<payload>`: the bytes the signature covers. */
  signingInput: string;
  signature: Buffer;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function b64url(data: string | Uint8Array): string {
  return Buffer.from(data).toString('base64url');
}

export function b64urlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** base64url without padding, strictly (no `+`, `/`, `=` or whitespace). */
export function fromB64url(text: string): Buffer | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  return Buffer.from(text, 'base64url');
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function decodeJsonPart(part: string): JsonObject | null {
  const bytes = fromB64url(part);
  if (!bytes) return null;
  try {
    const value = JSON.parse(bytes.toString('utf8'));
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** Splits and decodes a compact JWS; null when it is not one (wrong shape, bad base64url, not JSON objects). */
export function parseJws(token: string): ParsedJws | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJsonPart(h);
  const payload = decodeJsonPart(p);
  const signature = fromB64url(s);
  if (!header || !payload || !signature) return null;
  return { header, payload, signingInput: `${h}.${p}`, signature };
}

/** The base64url ES256 signature of `signingInput` (the `signer` the SD-JWT library calls too). */
export function es256Signature(signingInput: string, privateKey: KeyObject): string {
  return sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString(
    'base64url',
  );
}

export function signEs256(header: JsonObject, payload: JsonObject, privateKey: KeyObject): string {
  const signingInput = `${b64urlJson({ ...header, alg: 'ES256' })}.${b64urlJson(payload)}`;
  return `${signingInput}.${es256Signature(signingInput, privateKey)}`;
}

/** True when `jws` carries a valid ES256 signature by `publicKey`. The caller has checked `alg`. */
export function verifyEs256(
  jws: Pick<ParsedJws, 'signingInput' | 'signature'>,
  publicKey: KeyObject,
): boolean {
  if (jws.signature.length !== 64) return false;
  try {
    return verify(
      'sha256',
      Buffer.from(jws.signingInput),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      jws.signature,
    );
  } catch {
    return false;
  }
}

/** A public P-256 JWK as a key object; null for anything else (private parts, other curves, bad points). */
export function importPublicJwk(jwk: unknown): { key: KeyObject; jwk: PublicJwk } | null {
  if (!isJsonObject(jwk) || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) return null;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return null;
  if (fromB64url(jwk.x)?.length !== 32 || fromB64url(jwk.y)?.length !== 32) return null;
  const clean: PublicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  try {
    return { key: createPublicKey({ key: { ...clean }, format: 'jwk' }), jwk: clean };
  } catch {
    return null; // not a point on the curve
  }
}

/** RFC 7638 thumbprint of a P-256 public key (base64url SHA-256 of the canonical members). */
export function jwkThumbprint(jwk: PublicJwk): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return hash('sha256', canonical, 'base64url');
}

export function sha256B64url(data: string): string {
  return hash('sha256', data, 'base64url');
}
