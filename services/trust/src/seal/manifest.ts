/**
 * @module seal/manifest
 * The signed manifest: a claim and two signatures over it.
 *
 * - `manifestHash` = `sha256-` + hex SHA-256 of the RFC 8785 bytes of the claim.
 * - `p256Sig` = base64url of the raw 64-byte r‖s ECDSA P-256/SHA-256 signature over
 *   those same RFC 8785 bytes (what WebCrypto's `verify` takes).
 * - `ethSig` = EIP-191 `personal_sign` by the issuer's secp256k1 key over the 32 raw
 *   bytes of the manifest digest: 0x + r‖s‖v (65 bytes), lowercase hex.
 *
 * docs/trust-proof-format.md states the same, with a worked example.
 */
import { canonicalBytes, sha256, taggedHash } from '../crypto/canonical.js';
import type { SigningKey } from '../keys/keyring.js';
import { type Signatures, signClaimBytes } from './signatures.js';

export const CLAIM_TYPE = 'xv.seal.v1';

export interface Claim {
  type: typeof CLAIM_TYPE;
  receiptId: string;
  modelId: string;
  outputHash: string;
  inputHash?: string;
  tier: number;
  issuer: {
    orgId: string;
    name: string;
    did: string;
    identityVerified: boolean;
    keyId: string;
    ethAddress: string;
  };
  authLevel: string;
  issuedAt: string;
}

export interface Manifest {
  claim: Claim;
  manifestHash: string;
  signatures: Signatures;
}

/** Makes both signatures over a claim's bytes: on this thread, or on a SigningPool's. */
export type ClaimSigner = (bytes: Uint8Array, digest: Uint8Array, key: SigningKey) => Promise<Signatures>;

/** Signs `claim` with both of the issuer's keys. */
export async function signManifest(
  claim: Claim,
  key: SigningKey,
  signer: ClaimSigner = signClaimBytes,
): Promise<Manifest> {
  const bytes = canonicalBytes(claim);
  const digest = sha256(bytes);
  const signatures = await signer(bytes, digest, key);
  return { claim, manifestHash: taggedHash(digest), signatures };
}
