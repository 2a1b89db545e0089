/**
 * @module seal/verify
 * Checks a manifest on its own: the claim's hash, the P-256 signature and the EIP-191
 * signature (recovering to an Ethereum address), both against one key entry that the
 * issuer named in the claim published, and the claim's date against that key's
 * validity window. A key the caller supplies is checked too, but a key the issuer
 * never published cannot make a proof valid: the answer then says the signatures hold
 * (`signatureValid`) and the issuer is not verified (`issuerVerified: false`).
 * The outcome is a result, not an exception: a proof that does not verify is an
 * answer, not an error.
 */
import type { Hex } from 'viem';
import { canonicalBytes, digestOf, sha256, taggedHash } from '../crypto/canonical.js';
import { errors } from '../errors.js';
import {
  type OutsideValidity,
  outsideValidity,
  type PublishedKeys,
  type UnpublishedKey,
} from '../issuers/published-keys.js';
import type { IssuerKey, P256PublicJwk } from '../keys/keyring.js';
import { checkSignatures, type SignatureChecker, signatureCheck } from './signature-checks.js';

export type FailureReason = 'tampered' | 'bad_signature' | UnpublishedKey | OutsideValidity;

export interface ManifestVerification {
  status: 'valid' | 'invalid';
  /** True only when the signatures hold and are the named issuer's, inside its key's validity window. */
  valid: boolean;
  /** Both signatures and the hash check against the key they were checked with. */
  signatureValid: boolean;
  /** That key is one the named issuer published, and the claim is dated inside its window. */
  issuerVerified: boolean;
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
  unknown_issuer: 'The named issuer has published no keys here.',
  unknown_issuer_key: 'The manifest is signed by a key the named issuer never published.',
  demo_issuer: 'The manifest is signed by the demo issuer, which is trusted only in demo mode.',
  key_retired: 'The manifest claims a date after its key was retired.',
  key_not_yet_valid: 'The manifest claims no date, or a date before its key was created.',
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
  publishedKeys: PublishedKeys,
  options: { publicJwk?: P256PublicJwk; checker?: SignatureChecker } = {},
): Promise<ManifestVerification> {
  const { claim, signatures } = proof;
  const issuer = isObject(claim.issuer) ? claim.issuer : {};
  const orgId = typeof issuer.orgId === 'string' ? issuer.orgId : null;
  const keyId = typeof issuer.keyId === 'string' ? issuer.keyId : null;
  const claimedAddress = typeof issuer.ethAddress === 'string' ? issuer.ethAddress : '';
  let bytes: Uint8Array;
  try {
    bytes = canonicalBytes(claim);
  } catch {
    throw errors.invalid_proof('The claim cannot be canonicalised.');
  }
  const digest = sha256(bytes);
  const manifestHash = taggedHash(digest);
  const result = (
    outcome: Pick<ManifestVerification, 'integrity' | 'signatureValid'> & { reason?: FailureReason },
    checks: ManifestVerification['checks'],
  ): ManifestVerification => {
    const valid = outcome.reason === undefined;
    return {
      status: valid ? 'valid' : 'invalid',
      valid,
      signatureValid: outcome.signatureValid,
      issuerVerified: valid,
      integrity: outcome.integrity,
      manifestHash,
      issuer: { orgId, keyId },
      checks,
      ...(outcome.reason ? { reason: outcome.reason, message: MESSAGES[outcome.reason] } : {}),
    };
  };

  // A stated hash is optional; when present it must be exactly the claim's.
  const statedHash = proof.manifestHash;
  const hashMatches =
    statedHash === undefined ? null : digestOf(statedHash) !== null && statedHash === manifestHash;

  const issuedAt = Date.parse(String(claim.issuedAt));
  const found = await publishedKeys.find(orgId, keyId, issuedAt);
  const published: IssuerKey | undefined = 'key' in found ? found.key : undefined;
  let notTheIssuers: UnpublishedKey | undefined = 'unpublished' in found ? found.unpublished : undefined;
  // The claim names its key's address too: one that is not the published entry's is not that key.
  if (published && claimedAddress.toLowerCase() !== published.ethAddress.toLowerCase())
    notTheIssuers = 'unknown_issuer_key';
  // The key the signatures are checked with: the published one, or the caller's own.
  let signer: Pick<IssuerKey, 'jwk' | 'ethAddress'> | undefined = published;
  if (options.publicJwk && !(published && sameKey(published.jwk, options.publicJwk))) {
    signer = { jwk: options.publicJwk, ethAddress: claimedAddress as Hex };
    notTheIssuers = notTheIssuers === 'demo_issuer' ? 'demo_issuer' : 'unknown_issuer_key';
  }
  if (!signer) {
    return result(
      {
        integrity: hashMatches === false ? 'tampered' : 'unverified',
        signatureValid: false,
        reason: notTheIssuers ?? 'unknown_issuer',
      },
      { manifestHash: hashMatches, p256Sig: false, ethSig: false },
    );
  }

  // Both signatures against the same key entry: one good signature never vouches for the other.
  const check = signatureCheck({ bytes, digest }, signer, signatures);
  const checked =
    check.p256Sig === null && check.ethSig === null
      ? { p256Sig: false, ethSig: false }
      : await (options.checker ?? checkSignatures)(check);
  const p256Ok = checked.p256Sig;
  const ethOk = checked.ethSig;
  const checks = { manifestHash: hashMatches, p256Sig: p256Ok, ethSig: ethOk };
  if (hashMatches === false || (!p256Ok && !ethOk))
    return result({ integrity: 'tampered', signatureValid: false, reason: 'tampered' }, checks);
  if (!p256Ok || !ethOk)
    return result({ integrity: 'intact', signatureValid: false, reason: 'bad_signature' }, checks);
  if (notTheIssuers || !published)
    return result(
      { integrity: 'intact', signatureValid: true, reason: notTheIssuers ?? 'unknown_issuer_key' },
      checks,
    );
  const outside = outsideValidity(published, issuedAt);
  if (outside) return result({ integrity: 'intact', signatureValid: true, reason: outside }, checks);
  return result({ integrity: 'intact', signatureValid: true }, checks);
}

/** Turns a verification into a failure found after it (e.g. a receipt whose stored hash differs). */
export function invalidated(
  verification: ManifestVerification,
  reason: FailureReason,
  integrity: ManifestVerification['integrity'] = verification.integrity,
): ManifestVerification {
  return {
    ...verification,
    status: 'invalid',
    valid: false,
    issuerVerified: false,
    ...(reason === 'tampered' ? { signatureValid: false } : {}),
    integrity,
    reason,
    message: MESSAGES[reason],
  };
}

function sameKey(a: P256PublicJwk, b: P256PublicJwk): boolean {
  return a.x === b.x && a.y === b.y;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
