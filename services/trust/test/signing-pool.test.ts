/**
 * The signing threads: the signatures they make, how their failures surface, a crashed
 * thread replaced without losing its claims, and shutdown.
 */
import { createSecretKey, generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { type Hex, recoverMessageAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../src/crypto/canonical.js';
import type { SigningKey } from '../src/keys/keyring.js';
import { signClaimBytes } from '../src/seal/signatures.js';
import { SigningError, SigningPool, startSigningThread } from '../src/seal/signing-pool.js';

let keys = 0;
/** A fresh issuer key pair, as the keyring unlocks it. */
function issuerKey(): SigningKey {
  const secp = randomBytes(32);
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = p256.publicKey.export({ format: 'jwk' });
  const secp256k1 = privateKeyToAccount(`0x${secp.toString('hex')}`);
  return {
    keyId: `key_test${++keys}`,
    orgId: 'org_test',
    did: 'did:web:trust.test:o:test',
    status: 'active',
    jwk: { kty: 'EC', crv: 'P-256', x: x!, y: y! },
    ethAddress: secp256k1.address,
    createdAt: Date.now(),
    retiredAt: null,
    p256Private: p256.privateKey,
    secp256k1,
    secp256k1Private: createSecretKey(secp),
  };
}

function claimBytes(n: number) {
  const bytes = new TextEncoder().encode(JSON.stringify({ claim: n }));
  return { bytes, digest: sha256(bytes) };
}

/** Checks both signatures the way a verifier would. */
async function expectValid(
  signatures: { p256Sig: string; ethSig: Hex },
  claim: ReturnType<typeof claimBytes>,
  key: SigningKey,
) {
  const p256Sig = Buffer.from(signatures.p256Sig, 'base64url');
  expect(verify('sha256', claim.bytes, { key: key.p256Private, dsaEncoding: 'ieee-p1363' }, p256Sig)).toBe(
    true,
  );
  expect(await recoverMessageAddress({ message: { raw: claim.digest }, signature: signatures.ethSig })).toBe(
    key.ethAddress,
  );
}

/** Threads that exit as soon as they are asked to sign, the way a crash would. */
const crashing = (why: string) => () =>
  new Worker(
    `require('node:worker_threads').parentPort.on('message', () => { throw new Error(${JSON.stringify(why)}); });`,
    { eval: true },
  );

describe('the signing pool', () => {
  const pools: SigningPool[] = [];
  const pool = (options: ConstructorParameters<typeof SigningPool>[0]) => {
    const created = new SigningPool(options);
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.close()));
  });

  it('signs many claims of several issuers on its threads, as the event loop would', async () => {
    const signing = pool({ threads: 2 });
    const issuers = [issuerKey(), issuerKey(), issuerKey()];
    const claims = Array.from({ length: 60 }, (_, n) => ({ n, claim: claimBytes(n), key: issuers[n % 3]! }));
    const signed = await Promise.all(
      claims.map(({ claim, key }) => signing.sign(claim.bytes, claim.digest, key)),
    );
    for (const [n, signatures] of signed.entries()) {
      const { claim, key } = claims[n]!;
      await expectValid(signatures, claim, key);
      // secp256k1 signatures are deterministic (RFC 6979): the same as on this thread.
      expect(signatures.ethSig).toBe((await signClaimBytes(claim.bytes, claim.digest, key)).ethSig);
    }
  });

  it('checks proofs on its threads, mixed with signing: good signatures hold, changed ones and other keys fail', async () => {
    const signing = pool({ threads: 2 });
    const issuers = [issuerKey(), issuerKey()];
    const claims = Array.from({ length: 20 }, (_, n) => ({ claim: claimBytes(n), key: issuers[n % 2]! }));
    const signed = await Promise.all(
      claims.map(({ claim, key }) => signClaimBytes(claim.bytes, claim.digest, key)),
    );
    const checkOf = (
      n: number,
      key: SigningKey,
      sigs: { p256Sig: string | null; ethSig: string | null },
    ) => ({
      ...claims[n]!.claim,
      p256: key.jwk,
      ethAddress: key.ethAddress,
      ...sigs,
    });
    const flip = (text: string) => `${text.slice(0, 10)}${text[10] === 'a' ? 'b' : 'a'}${text.slice(11)}`;
    const [good, changed, otherKey, alongside] = await Promise.all([
      Promise.all(signed.map((sigs, n) => signing.check(checkOf(n, claims[n]!.key, sigs)))),
      Promise.all(
        signed.map((sigs, n) =>
          signing.check(
            checkOf(n, claims[n]!.key, { p256Sig: flip(sigs.p256Sig), ethSig: flip(sigs.ethSig) }),
          ),
        ),
      ),
      Promise.all(signed.map((sigs, n) => signing.check(checkOf(n, issuers[(n + 1) % 2]!, sigs)))),
      signing.sign(claims[0]!.claim.bytes, claims[0]!.claim.digest, issuers[0]!),
    ]);
    expect(good.every((c) => c.p256Sig && c.ethSig)).toBe(true);
    expect(changed.some((c) => c.p256Sig || c.ethSig)).toBe(false);
    expect(otherKey.some((c) => c.p256Sig || c.ethSig)).toBe(false);
    await expectValid(alongside, claims[0]!.claim, issuers[0]!);
  });

  it('answers a claim that cannot be signed with a SigningError that names no key, and signs on', async () => {
    const signing = pool({ threads: 1 });
    const good = issuerKey();
    const wrongCurve = { ...issuerKey(), p256Private: generateKeyPairSync('ed25519').privateKey };
    const claim = claimBytes(1);
    const failure = await signing.sign(claim.bytes, claim.digest, wrongCurve).catch((error) => error);
    expect(failure).toBeInstanceOf(SigningError);
    expect(failure.message).toMatch(/^Signing failed: .*invalid digest/);
    const scalar = wrongCurve.secp256k1Private.export().toString('hex');
    expect(failure.message).not.toContain(scalar);
    await expectValid(await signing.sign(claim.bytes, claim.digest, good), claim, good);
  });

  it('replaces a thread that dies while signing, and signs its claims on the new one', async () => {
    let started = 0;
    const signing = pool({
      threads: 1,
      start: () => (++started === 1 ? crashing('out of memory')() : startSigningThread()),
    });
    const key = issuerKey();
    const claims = Array.from({ length: 5 }, (_, n) => claimBytes(n));
    const signed = await Promise.all(claims.map((claim) => signing.sign(claim.bytes, claim.digest, key)));
    for (const [n, signatures] of signed.entries()) await expectValid(signatures, claims[n]!, key);
    expect(started).toBe(2);
  });

  it('fails a claim with a SigningError when its second thread dies too, instead of hanging', async () => {
    const signing = pool({ threads: 1, start: crashing('boom') });
    const claim = claimBytes(1);
    await expect(signing.sign(claim.bytes, claim.digest, issuerKey())).rejects.toThrow(
      new SigningError('A signing thread stopped while signing (boom).'),
    );
    // The pool itself is not stuck: the next claim gets its own attempts.
    await expect(signing.sign(claim.bytes, claim.digest, issuerKey())).rejects.toBeInstanceOf(SigningError);
  });

  it('finishes the claims in flight on close, stops its threads, and refuses new claims', async () => {
    const exits: Promise<unknown>[] = [];
    const signing = pool({
      threads: 2,
      start: () => {
        const worker = startSigningThread();
        exits.push(new Promise((resolve) => worker.once('exit', resolve)));
        return worker;
      },
    });
    const key = issuerKey();
    const claims = Array.from({ length: 8 }, (_, n) => claimBytes(n));
    const inFlight = claims.map((claim) => signing.sign(claim.bytes, claim.digest, key));
    await signing.close();
    for (const [n, signatures] of (await Promise.all(inFlight)).entries())
      await expectValid(signatures, claims[n]!, key);
    expect(exits).toHaveLength(2);
    await Promise.all(exits);
    await expect(signing.sign(claims[0]!.bytes, claims[0]!.digest, key)).rejects.toThrow(
      'The signing pool is closed.',
    );
  });
});
