/**
 * @module client/lib/signatures
 * The two signatures of a proof, checked in the browser: P-256 (ECDSA over the
 * canonical claim, through WebCrypto) and EIP-191 secp256k1 (recovered to an
 * Ethereum address with @noble/curves; Keccak-256 from @noble/hashes).
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { fromBase64url, fromHex, hex, toBase64url } from './encoding.js';

/** Keccak-256 (the Ethereum one, not SHA3-256) of bytes. */
export const keccak256 = (bytes: Uint8Array): Uint8Array => keccak_256(bytes);

const toBig = (bytes: Uint8Array): bigint => BigInt(`0x${hex(bytes) || '0'}`);

/** The Ethereum address that made a 65-byte signature r‖s‖v over the 32-byte hash `digest`. */
export function recoverAddress(digest: Uint8Array, sig: Uint8Array): string | null {
  const v = sig[64] ?? 0;
  const recovery = v >= 27 ? v - 27 : v;
  if (sig.length !== 65 || recovery > 1) return null;
  try {
    const signature = new secp256k1.Signature(toBig(sig.slice(0, 32)), toBig(sig.slice(32, 64)), recovery);
    const publicKey = signature.recoverPublicKey(digest).toBytes(false);
    return `0x${hex(keccak256(publicKey.slice(1)).slice(12))}`;
  } catch {
    // r or s out of range, or no point with that x: no signer.
    return null;
  }
}

/** The P-256 signature (base64url of r‖s, canonical encoding only) of `data` under the public key (x, y). */
export async function p256Valid(
  jwk: { x: unknown; y: unknown },
  data: Uint8Array<ArrayBuffer>,
  sig: unknown,
): Promise<boolean> {
  if (typeof sig !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(sig)) return false;
  const raw = fromBase64url(sig);
  if (raw.length !== 64 || toBase64url(raw) !== sig) return false;
  if (typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return false;
  try {
    const key = await crypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, ext: true },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    return await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, raw, data);
  } catch {
    return false;
  }
}

/** The EIP-191 signature of the 32-byte `digest` recovers to `address`. */
export function ethValid(address: unknown, digest: Uint8Array, sig: unknown): boolean {
  if (typeof sig !== 'string' || !/^0x[0-9a-f]{130}$/.test(sig) || typeof address !== 'string') return false;
  const prefix = new TextEncoder().encode('\x19Ethereum Signed Message:\n32');
  const message = new Uint8Array(prefix.length + 32);
  message.set(prefix);
  message.set(digest, prefix.length);
  const recovered = recoverAddress(keccak256(message), fromHex(sig.slice(2)));
  return recovered !== null && recovered === address.toLowerCase();
}
