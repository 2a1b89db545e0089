/**
 * @module seal/verify
 * Checks a manifest on its own: the claim's hash, the P-256 signature against the
 * issuer's published JWK (or one the caller supplies), and the EIP-191 signature
 * recovering to the issuer's Ethereum address. The outcome is a result, not an
 * exception: a proof that does not verify is an answer, not an error.
 */
import { verify as verifyP256 } from 'node:crypto';
import { type Hex, recoverMessageAddress } from 'viem';
import { canonicalBytes, digestOf, sha256, taggedHash } from '../crypto/canonical.js';
import { errors } from '../errors.js';
import type { IssuerKey, Keyring, P256PublicJwk } from '../keys/keyring.js';

export type FailureReason = 'tampered' | 'bad_signature' | 'unknown_issuer' | 'key_retired';

export interface ManifestVerification {
  status: 'valid' | 'invalid';
  integrity: 'intact' | 'tampered' | 'unverified';
  manifestHash: string;
  issuer: { orgId: string | null; keyId: string | null };
  checks: { manifestHash: boolean | null; p256Sig: boolean; ethSig: boolean };
  reason?: FailureReason;
  message?: string;
}

interface ParsedProof {
  claim: Record<string, unknown>;
  manifestHash: unknown;
  signatures: Record<string, unknown>;
  /** The anchor a downloaded proof carries (checked in anchoring/inclusion). */
  anchor?: unknown;
}

const MESSAGES: Record<FailureReason, string> = {
  tampered: 'The claim does not match its signatures: the manifest was changed after it was sealed.',
  bad_signature: 'A signature does not verify against the issuer key.',
  unknown_issuer: 'No published key of that issuer matches the manifest.',
  key_retired: 'The manifest claims a date after its key was retired.',
};

const MANIFEST_FIELDS = new Set(['claim', 'manifestHash', 'signatures', 'anchor']);
const SIGNATURE_FIELDS = new Set(['p256Sig', 'ethSig']);

/** Parses a serialized manifest; anything that is not `{claim:{…}, signatures:{…}}` is a 400. */
export function parseProof(proof: string): ParsedProof {
  let value: unknown;
  try {
    value = JSON.parse(proof);
  } catch {
    throw errors.invalid_proof('The proof is not valid JSON.');
  }
  if (!isObject(value) || !isObject(value.claim) || !isObject(value.signatures)) throw errors.invalid_proof();
  // Unknown fields are refused rather than ignored: a renamed `manifestHash` must not slip through.
  const extra = [
    ...Object.keys(value).filter((k) => !MANIFEST_FIELDS.has(k)),
    ...Object.keys(value.signatures).filter((k) => !SIGNATURE_FIELDS.has(k)),
  ];
  if (extra.length > 0)
    throw errors.invalid_proof(`The proof has unexpected fields: ${extra.slice(0, 3).join(', ')}.`);
  return {
    claim: value.claim,
    manifestHash: value.manifestHash,
    signatures: value.signatures,
    ...(value.anchor !== undefined ? { anchor: value.anchor } : {}),
  };
}

/** Strict P-256 public JWK check for a caller-supplied key. */
export function asP256Jwk(value: unknown): P256PublicJwk {
  const candidate = isObject(value) && isObject(value.jwk) ? value.jwk : value;
  const coordinate = /^[A-Za-z0-9_-]{43}$/;
  if (
    !isObject(candidate) ||
    candidate.kty !== 'EC' ||
    candidate.crv !== 'P-256' ||
    typeof candidate.x !== 'string' ||
    typeof candidate.y !== 'string' ||
    !coordinate.test(candidate.x) ||
    !coordinate.test(candidate.y)
  )
    throw errors.invalid_public_key();
  return { kty: 'EC', crv: 'P-256', x: candidate.x, y: candidate.y };
}

export async function verifyManifest(
  proof: ParsedProof,
  keyring: Keyring,
  options: { publicJwk?: P256PublicJwk } = {},
): Promise<ManifestVerification> {
  const { claim, signatures } = proof;
  const issuer = isObject(claim.issuer) ? claim.issuer : {};
  const orgId = typeof issuer.orgId === 'string' ? issuer.orgId : null;
  const keyId = typeof issuer.keyId === 'string' ? issuer.keyId : null;
  let bytes: Uint8Array;
  try {
    bytes = canonicalBytes(claim);
  } catch {
    throw errors.invalid_proof('The claim cannot be canonicalised.');
  }
  const digest = sha256(bytes);
  const manifestHash = taggedHash(digest);
  const result = (
    outcome: Partial<ManifestVerification> & Pick<ManifestVerification, 'status' | 'integrity'>,
    checks: ManifestVerification['checks'],
  ): ManifestVerification => ({
    manifestHash,
    issuer: { orgId, keyId },
    checks,
    ...outcome,
    ...(outcome.reason ? { message: MESSAGES[outcome.reason] } : {}),
  });

  // A stated hash is optional; when present it must be exactly the claim's.
  const statedHash = proof.manifestHash;
  const hashMatches =
    statedHash === undefined ? null : digestOf(statedHash) !== null && statedHash === manifestHash;

  let key: Pick<IssuerKey, 'jwk' | 'ethAddress' | 'retiredAt'> | undefined;
  if (options.publicJwk) {
    key = { jwk: options.publicJwk, ethAddress: String(issuer.ethAddress ?? '') as Hex, retiredAt: null };
  } else if (orgId && keyId) {
    key = await keyring.key(orgId, keyId);
  }
  if (!key) {
    return result(
      {
        status: 'invalid',
        integrity: hashMatches === false ? 'tampered' : 'unverified',
        reason: 'unknown_issuer',
      },
      { manifestHash: hashMatches, p256Sig: false, ethSig: false },
    );
  }

  const p256Ok = checkP256(keyring, key.jwk, bytes, signatures.p256Sig);
  const ethOk = await checkEth(key.ethAddress, digest, signatures.ethSig);
  const checks = { manifestHash: hashMatches, p256Sig: p256Ok, ethSig: ethOk };
  if (hashMatches === false || (!p256Ok && !ethOk))
    return result({ status: 'invalid', integrity: 'tampered', reason: 'tampered' }, checks);
  if (!p256Ok || !ethOk)
    return result({ status: 'invalid', integrity: 'intact', reason: 'bad_signature' }, checks);
  if (key.retiredAt !== null && !(Date.parse(String(claim.issuedAt)) <= key.retiredAt))
    return result({ status: 'invalid', integrity: 'intact', reason: 'key_retired' }, checks);
  return result({ status: 'valid', integrity: 'intact' }, checks);
}

const P256_SIG = /^[A-Za-z0-9_-]{86}$/;

function checkP256(keyring: Keyring, jwk: P256PublicJwk, bytes: Uint8Array, sig: unknown): boolean {
  if (typeof sig !== 'string' || !P256_SIG.test(sig)) return false;
  const raw = Buffer.from(sig, 'base64url');
  // Only the canonical encoding counts: unused trailing bits must not hide a changed character.
  if (raw.length !== 64 || raw.toString('base64url') !== sig) return false;
  try {
    return verifyP256('sha256', bytes, { key: keyring.publicKeyObject(jwk), dsaEncoding: 'ieee-p1363' }, raw);
  } catch {
    return false;
  }
}

async function checkEth(expected: string, digest: Uint8Array, sig: unknown): Promise<boolean> {
  // Lowercase only: hex letters of another case would decode to the same bytes.
  if (typeof sig !== 'string' || !/^0x[0-9a-f]{130}$/.test(sig)) return false;
  try {
    const recovered = await recoverMessageAddress({ message: { raw: digest }, signature: sig as Hex });
    return recovered.toLowerCase() === expected.toLowerCase();
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
