/**
 * @module crypto/eth-signature
 * The EIP-191 (`personal_sign`) signature of a manifest: 0x + r‖s‖v over the 32 raw
 * digest bytes, valid when it recovers to the issuer's Ethereum address.
 *
 * Recovery runs in libsecp256k1 (the `secp256k1` package's native binding): about
 * 0.05 ms of CPU, against 1.5 ms for viem's pure-JavaScript recovery and 0.47 ms for a
 * @noble/curves verify with a precomputed public point (measured on the bench
 * machine). node:crypto cannot do it: OpenSSL 3.0 in Node 20 has no Keccak-256, and
 * Node's ECDSA verify always hashes its input, so a prehashed digest never verifies.
 * Where the binding cannot load, viem recovers, with the same answers (a test holds
 * the two to agreeing on valid, mangled and out-of-range signatures).
 */
import { createRequire } from 'node:module';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Hex } from 'viem';

/** The part of the `secp256k1` package's API used here (it ships no types). */
export interface Libsecp256k1 {
  ecdsaRecover(signature: Uint8Array, recoveryId: number, hash: Uint8Array, compressed: false): Uint8Array;
}

function loadLibsecp256k1(): Libsecp256k1 | null {
  try {
    // `secp256k1/bindings` is the native build only (the package's main falls back to elliptic).
    return createRequire(import.meta.url)('secp256k1/bindings') as Libsecp256k1;
  } catch {
    return null;
  }
}

/** The native binding, or null where it cannot load (then viem recovers). */
export const libsecp256k1 = loadLibsecp256k1();

/** Lowercase only: hex letters of another case would decode to the same bytes. */
const ETH_SIG = /^0x[0-9a-f]{130}$/;

/** Whether an EIP-191 signature can be checked at all: 0x and 65 bytes of lowercase hex. */
export function ethSignatureWellFormed(sig: unknown): sig is string {
  return typeof sig === 'string' && ETH_SIG.test(sig);
}

/** Whether `sig` is the EIP-191 signature of `digest` by the key of the Ethereum address `expected`. */
export function ethSignatureValid(expected: string, digest: Uint8Array, sig: unknown): Promise<boolean> {
  if (!ethSignatureWellFormed(sig)) return Promise.resolve(false);
  if (!libsecp256k1) return recoveredByViem(expected, digest, sig as Hex);
  return Promise.resolve(recoveredByLibsecp256k1(libsecp256k1, expected, digest, sig));
}

/** viem's reading of v: 0 or 1, or 27 or 28 (Ethereum's offset); anything else is no signature. */
function recoveryBit(v: number): 0 | 1 | null {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  return null;
}

/** What EIP-191 puts before a 32-byte message it signs. */
const PERSONAL_MESSAGE = Buffer.from('\x19Ethereum Signed Message:\n32');

/**
 * Public keys already seen to hash to an address (lowercase), so a key's later signatures
 * compare 65 bytes instead of hashing again; a key that differs is hashed as before.
 */
const publicKeysOf = new Map<string, Buffer>();
const MAX_KNOWN_KEYS = 10_000;

export function recoveredByLibsecp256k1(
  lib: Libsecp256k1,
  expected: string,
  digest: Uint8Array,
  sig: string,
): boolean {
  const bytes = Buffer.from(sig.slice(2), 'hex');
  const bit = recoveryBit(bytes[64]!);
  if (bit === null) return false;
  let publicKey: Buffer;
  try {
    const hash = keccak_256(Buffer.concat([PERSONAL_MESSAGE, digest]));
    // Fails (throws) for r or s of 0 or at least the group order, and for an r that is no point's x.
    publicKey = Buffer.from(lib.ecdsaRecover(bytes.subarray(0, 64), bit, hash, false));
  } catch {
    return false;
  }
  const address = expected.toLowerCase();
  if (publicKeysOf.get(address)?.equals(publicKey)) return true;
  if (`0x${Buffer.from(keccak_256(publicKey.subarray(1)).subarray(12)).toString('hex')}` !== address)
    return false;
  if (publicKeysOf.size >= MAX_KNOWN_KEYS) publicKeysOf.clear();
  publicKeysOf.set(address, publicKey);
  return true;
}

export async function recoveredByViem(expected: string, digest: Uint8Array, sig: Hex): Promise<boolean> {
  // Loaded only when needed: viem's index adds about half a second to a signing thread's start.
  const { recoverMessageAddress } = await import('viem');
  try {
    const recovered = await recoverMessageAddress({ message: { raw: digest }, signature: sig });
    return recovered.toLowerCase() === expected.toLowerCase();
  } catch {
    return false;
  }
}
