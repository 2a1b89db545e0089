/**
 * @module seal/signature-checks
 * Checking the two signatures of a manifest (see manifest.ts for what they sign)
 * against one key entry. Like signatures.ts it imports nothing else of the service
 * but crypto/eth-signature, so a signing thread (signing-thread.ts) loads it on its
 * own and checks there, off the event loop.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { ethSignatureValid, ethSignatureWellFormed } from '../crypto/eth-signature.js';

/** Both signatures of one manifest and the key entry they must check against. */
export interface SignatureCheck {
  /** The RFC 8785 bytes of the claim (what the P-256 signature signs). */
  bytes: Uint8Array;
  /** Their SHA-256 digest (what the EIP-191 signature signs). */
  digest: Uint8Array;
  p256: { x: string; y: string };
  /** The signature when it is well formed, else null (it then fails unchecked). */
  p256Sig: string | null;
  ethAddress: string;
  ethSig: string | null;
}

export interface SignatureChecks {
  p256Sig: boolean;
  ethSig: boolean;
}

/** Checks both signatures: on this thread, or on a SigningPool's. */
export type SignatureChecker = (check: SignatureCheck) => Promise<SignatureChecks>;

const P256_SIG = /^[A-Za-z0-9_-]{86}$/;

/** Whether a P-256 signature can be checked at all: base64url of 64 bytes (r‖s). */
export function p256SignatureWellFormed(sig: unknown): sig is string {
  return typeof sig === 'string' && P256_SIG.test(sig);
}

export async function checkSignatures(check: SignatureCheck): Promise<SignatureChecks> {
  return {
    p256Sig: p256SignatureValid(check.p256, check.bytes, check.p256Sig),
    ethSig: await ethSignatureValid(check.ethAddress, check.digest, check.ethSig),
  };
}

/**
 * The check of a manifest's `signatures` against a key entry. Only well-formed strings
 * are kept: whatever else a proof holds there is never copied to a thread.
 */
export function signatureCheck(
  claim: { bytes: Uint8Array; digest: Uint8Array },
  signer: { jwk: { x: string; y: string }; ethAddress: string },
  signatures: Record<string, unknown>,
): SignatureCheck {
  const { p256Sig, ethSig } = signatures;
  return {
    bytes: claim.bytes,
    digest: claim.digest,
    p256: { x: signer.jwk.x, y: signer.jwk.y },
    p256Sig: p256SignatureWellFormed(p256Sig) ? p256Sig : null,
    ethAddress: signer.ethAddress,
    ethSig: ethSignatureWellFormed(ethSig) ? ethSig : null,
  };
}

function p256SignatureValid(jwk: { x: string; y: string }, bytes: Uint8Array, sig: unknown): boolean {
  if (!p256SignatureWellFormed(sig)) return false;
  const raw = Buffer.from(sig, 'base64url');
  // Only the canonical encoding counts: unused trailing bits must not hide a changed character.
  if (raw.length !== 64 || raw.toString('base64url') !== sig) return false;
  try {
    return verify('sha256', bytes, { key: p256PublicKey(jwk), dsaEncoding: 'ieee-p1363' }, raw);
  } catch {
    return false;
  }
}

/** Public keys parsed once per coordinates, not once per verification. */
const publicKeys = new Map<string, KeyObject>();
const MAX_PUBLIC_KEYS = 10_000;

function p256PublicKey(jwk: { x: string; y: string }): KeyObject {
  const cacheKey = `${jwk.x}.${jwk.y}`;
  let key = publicKeys.get(cacheKey);
  if (!key) {
    key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
    if (publicKeys.size >= MAX_PUBLIC_KEYS) publicKeys.clear();
    publicKeys.set(cacheKey, key);
  }
  return key;
}
