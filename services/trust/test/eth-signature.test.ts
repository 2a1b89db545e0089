/**
 * The EIP-191 check in libsecp256k1 gives viem's answers: for valid signatures, for
 * every changed byte (r, s, v), for v values viem refuses, for r or s of 0, of the
 * group order and above, for high-s twins of valid signatures, and for other keys.
 */
import { createHash } from 'node:crypto';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import fc from 'fast-check';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import {
  ethSignatureValid,
  libsecp256k1,
  recoveredByLibsecp256k1,
  recoveredByViem,
} from '../src/crypto/eth-signature.js';

const N = secp256k1.Point.CURVE().n;
const hex32 = (value: bigint) => value.toString(16).padStart(64, '0');

const signer = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const digestOf = (seed: number) => createHash('sha256').update(`claim ${seed}`).digest();

/** Both paths' answers for one signature: they must agree. */
async function answers(expected: string, digest: Uint8Array, sig: string) {
  return {
    native: recoveredByLibsecp256k1(libsecp256k1!, expected, digest, sig),
    viem: await recoveredByViem(expected, digest, sig as Hex),
  };
}

describe('EIP-191 signatures', () => {
  it('loads the native libsecp256k1 binding here', () => {
    expect(libsecp256k1).not.toBeNull();
  });

  it('accepts a valid signature and refuses it for another digest, another key or another case', async () => {
    const digest = digestOf(1);
    const sig = await signer.signMessage({ message: { raw: digest } });
    expect(await ethSignatureValid(signer.address, digest, sig)).toBe(true);
    expect(await ethSignatureValid(signer.address.toLowerCase(), digest, sig)).toBe(true);
    expect(await ethSignatureValid(signer.address, digestOf(2), sig)).toBe(false);
    expect(await ethSignatureValid(other.address, digest, sig)).toBe(false);
    // Once the signer's public key is known for its address, another key's signature still fails.
    const forged = await other.signMessage({ message: { raw: digest } });
    expect(await ethSignatureValid(signer.address, digest, forged)).toBe(false);
    expect(await ethSignatureValid(other.address, digest, forged)).toBe(true);
    expect(await ethSignatureValid(signer.address, digest, sig.toUpperCase().replace('0X', '0x'))).toBe(
      false,
    );
    expect(await ethSignatureValid(signer.address, digest, sig.slice(0, -2))).toBe(false);
    expect(await ethSignatureValid(signer.address, digest, 42)).toBe(false);
  });

  it('gives the same answer as viem for changed bytes, any v, and r or s out of range', async () => {
    const digest = digestOf(3);
    const sig = await signer.signMessage({ message: { raw: digest } });
    const r = BigInt(`0x${sig.slice(2, 66)}`);
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = Number.parseInt(sig.slice(130), 16);
    const flipped = v === 27 ? 28 : 27;
    const compose = (rr: bigint, ss: bigint, vv: number) =>
      `0x${hex32(rr)}${hex32(ss)}${vv.toString(16).padStart(2, '0')}`;
    const cases = [
      compose(r, s, v - 27), // the same signature with v as a parity bit: valid
      compose(r, s, flipped), // the other point with that x: another key
      compose(r, N - s, flipped), // the high-s twin: the same key (viem does not demand low s)
      compose(r, N - s, v),
      compose(0n, s, v),
      compose(r, 0n, v),
      compose(N, s, v),
      compose(r, N, v),
      compose(r + N < 2n ** 256n ? r + N : r, s, v),
      compose(2n ** 256n - 1n, s, v),
      compose(r, s, 2),
      compose(r, s, 29),
      compose(r, s, 255),
    ];
    for (const candidate of cases) {
      const { native, viem } = await answers(signer.address, digest, candidate);
      expect({ candidate, native }).toEqual({ candidate, native: viem });
    }
    expect((await answers(signer.address, digest, compose(r, N - s, flipped))).native).toBe(true);
    expect((await answers(signer.address, digest, compose(r, s, flipped))).native).toBe(false);
  });

  it('agrees with viem on signatures with any byte changed', async () => {
    const signed = await Promise.all(
      [0, 1, 2, 3].map(async (seed) => {
        const digest = digestOf(100 + seed);
        return { digest, sig: await signer.signMessage({ message: { raw: digest } }) };
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...signed),
        fc.integer({ min: 0, max: 64 }),
        fc.integer({ min: 0, max: 255 }),
        async ({ digest, sig }, index, value) => {
          const changed = `${sig.slice(0, 2 + index * 2)}${value.toString(16).padStart(2, '0')}${sig.slice(4 + index * 2)}`;
          const { native, viem } = await answers(signer.address, digest, changed);
          expect(native).toBe(viem);
        },
      ),
      { numRuns: 300 },
    );
  });
});
