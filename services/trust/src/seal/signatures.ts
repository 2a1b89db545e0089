/**
 * @module seal/signatures
 * The two signatures of a manifest, over the RFC 8785 bytes of its claim and their
 * SHA-256 digest (see manifest.ts). It imports nothing else of the service, so a
 * signing thread (signing-thread.ts) loads it on its own.
 */
import { type KeyObject, sign } from 'node:crypto';
import type { Hex } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';

export interface Signatures {
  p256Sig: string;
  ethSig: Hex;
}

/** The private halves of an issuer key pair. */
export interface ClaimKeys {
  p256Private: KeyObject;
  secp256k1: PrivateKeyAccount;
}

export async function signClaimBytes(
  bytes: Uint8Array,
  digest: Uint8Array,
  keys: ClaimKeys,
): Promise<Signatures> {
  const p256Sig = sign('sha256', bytes, { key: keys.p256Private, dsaEncoding: 'ieee-p1363' }).toString(
    'base64url',
  );
  const ethSig = await keys.secp256k1.signMessage({ message: { raw: digest } });
  return { p256Sig, ethSig };
}
