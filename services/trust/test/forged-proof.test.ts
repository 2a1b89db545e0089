/**
 * Forged proofs over HTTP: a proof is valid only when both of its signatures check
 * against a key the named issuer published (the key set), inside that key's validity
 * window. A key the caller brings, another organization's key, a retired key used
 * after retirement and the demo issuer outside demo mode all answer `valid:false`,
 * on the server, on the pages and in the in-browser verifier.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { describeEachDatabase, hasChromium, launchBrowser } from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import type { PrivateKeyAccount } from 'viem/accounts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createVerifier } from '../src/client/lib/verifier.js';
import { canonicalBytes, sha256, taggedHash } from '../src/crypto/canonical.js';
import type { TrustDb } from '../src/db.js';
import { verifierRules } from '../src/http/verdict-words.js';
import type { ReceiptView } from '../src/receipts/receipts.js';
import { signClaimBytes } from '../src/seal/signatures.js';
import { newOrganization, type PublishedKey, postJson, startTrustStack, type TrustStack } from './helpers.js';

interface BrowserVerdict {
  status: string;
  valid?: boolean;
  signatureValid?: boolean;
  issuerVerified?: boolean;
  reason?: string;
}
const core = createVerifier(verifierRules) as {
  verifyProof(proof: string, jwks: unknown): Promise<BrowserVerdict>;
  explain(verdict: BrowserVerdict): string;
};

/** A key pair nobody published: what a forger holds. */
interface ForgerKeys {
  p256Private: KeyObject;
  jwk: { kty: 'EC'; crv: 'P-256'; x: string; y: string };
  secp256k1: PrivateKeyAccount;
}

function forgerKeys(): ForgerKeys {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { x, y } = publicKey.export({ format: 'jwk' });
  return {
    p256Private: privateKey,
    jwk: { kty: 'EC', crv: 'P-256', x: x!, y: y! },
    secp256k1: privateKeyToAccount(generatePrivateKey()),
  };
}

/** A manifest over `claim`, signed with `keys`: mathematically correct signatures. */
async function signedProof(claim: Record<string, unknown>, keys: ForgerKeys): Promise<string> {
  const bytes = canonicalBytes(claim);
  const digest = sha256(bytes);
  const signatures = await signClaimBytes(bytes, digest, keys);
  return JSON.stringify({ claim, manifestHash: taggedHash(digest), signatures });
}

const HOUR = 3_600_000;

describeEachDatabase('forged proofs', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  let receipt: ReceiptView;
  let acmeKey: PublishedKey;
  let browser: Browser | undefined;

  const verify = async (body: unknown) => {
    const response = await postJson(stack.trust, '/api/verify', body);
    expect(response.status).toBe(200);
    return response.json();
  };
  const jwks = async () => (await stack.trust.fetch('/api/keys/jwks')).json();

  /** A claim like a real seal of `issuer`, with the signer's key id and address. */
  const claimOf = (
    issuer: { orgId: string; name: string; keyId: string; ethAddress: string },
    issuedAt = new Date().toISOString(),
  ) => ({
    ...receipt.manifest.claim,
    receiptId: 'rcpt_0forged00000000000000000000',
    issuer: { ...receipt.manifest.claim.issuer, ...issuer },
    issuedAt,
  });

  /** Publishes `keys` under `orgId` the way the keyring does (the private halves are never read to verify). */
  const publish = async (
    orgId: string,
    keys: ForgerKeys,
    window: { status: 'active' | 'retired'; createdAt: number; retiredAt: number | null },
  ) => {
    const keyId = `key_${orgId.slice(4, 30).padEnd(26, '0')}`;
    await (stack.trustDatabase.kysely as TrustDb)
      .insertInto('issuer_keys')
      .values({
        key_id: keyId,
        org_id: orgId,
        did: `did:web:identity.test:o:${orgId}`,
        status: window.status,
        p256_jwk: JSON.stringify(keys.jwk),
        p256_private: 'not-needed-to-verify',
        secp256k1_private: 'not-needed-to-verify',
        eth_address: keys.secp256k1.address,
        created_at: window.createdAt,
        retired_at: window.retiredAt,
      })
      .execute();
    return keyId;
  };

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme Sealed');
    receipt = await (
      await postJson(
        stack.trust,
        '/api/seal',
        { modelId: 'model-a', output: 'real' },
        { cookie: acme.cookie },
      )
    ).json();
    acmeKey = ((await jwks()).keys as PublishedKey[]).find((k) => k.kid === acme.orgId)!;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('a proof carrying its own key and naming a real organization is not valid', async () => {
    const forger = forgerKeys();
    const proof = await signedProof(
      claimOf({
        orgId: acme.orgId,
        name: 'Acme Sealed',
        keyId: acmeKey.keyId,
        ethAddress: forger.secp256k1.address,
      }),
      forger,
    );
    // The forger's key, handed in as publicJwk: the signatures are correct, the issuer never published it.
    const withOwnKey = await verify({ proof, publicJwk: forger.jwk });
    expect(withOwnKey).toMatchObject({
      valid: false,
      signatureValid: true,
      issuerVerified: false,
      reason: 'unknown_issuer_key',
      issuer: { orgId: acme.orgId },
    });
    expect(withOwnKey.status).not.toBe('valid');
    // Against the key set, it is simply not signed by Acme.
    const againstKeySet = await verify({ proof });
    expect(againstKeySet).toMatchObject({ valid: false, issuerVerified: false });
    expect(againstKeySet.status).not.toBe('valid');
    // A key id Acme never had: the named issuer did not publish it.
    const inventedKeyId = await signedProof(
      claimOf({
        orgId: acme.orgId,
        name: 'Acme Sealed',
        keyId: 'key_0forged00000000000000000000',
        ethAddress: forger.secp256k1.address,
      }),
      forger,
    );
    expect(await verify({ proof: inventedKeyId, publicJwk: forger.jwk })).toMatchObject({
      status: 'invalid',
      valid: false,
      signatureValid: true,
      issuerVerified: false,
      reason: 'unknown_issuer_key',
    });
    expect(await verify({ proof: inventedKeyId })).toMatchObject({
      valid: false,
      reason: 'unknown_issuer_key',
    });
  });

  it("a real proof checked with the issuer's own published key is valid and issuer-verified", async () => {
    const proof = JSON.stringify(receipt.manifest);
    for (const publicJwk of [undefined, acmeKey.jwk, acmeKey]) {
      expect(await verify({ proof, ...(publicJwk ? { publicJwk } : {}) })).toMatchObject({
        status: 'valid',
        valid: true,
        signatureValid: true,
        issuerVerified: true,
        integrity: 'intact',
      });
    }
  });

  it('a proof with a valid P-256 signature and a forged eth signature is not valid', async () => {
    const forger = forgerKeys();
    const bytes = canonicalBytes(receipt.manifest.claim);
    const forgedEth = await forger.secp256k1.signMessage({ message: { raw: sha256(bytes) } });
    const proof = JSON.stringify({
      ...receipt.manifest,
      signatures: { p256Sig: receipt.manifest.signatures.p256Sig, ethSig: forgedEth },
    });
    for (const publicJwk of [undefined, acmeKey.jwk]) {
      const result = await verify({ proof, ...(publicJwk ? { publicJwk } : {}) });
      expect(result).toMatchObject({
        status: 'invalid',
        valid: false,
        signatureValid: false,
        reason: 'bad_signature',
        checks: { p256Sig: true, ethSig: false },
      });
    }
  });

  it("a proof signed with organization A's published key but claiming organization B is not valid", async () => {
    const orgA = await newOrganization(stack, 'Org A');
    const keysOfA = forgerKeys();
    const keyIdOfA = await publish(orgA.orgId, keysOfA, {
      status: 'active',
      createdAt: Date.now() - HOUR,
      retiredAt: null,
    });
    const proof = await signedProof(
      claimOf({
        orgId: acme.orgId,
        name: 'Acme Sealed',
        keyId: keyIdOfA,
        ethAddress: keysOfA.secp256k1.address,
      }),
      keysOfA,
    );
    for (const publicJwk of [undefined, keysOfA.jwk]) {
      const result = await verify({ proof, ...(publicJwk ? { publicJwk } : {}) });
      expect(result).toMatchObject({ valid: false, issuerVerified: false, reason: 'unknown_issuer_key' });
      expect(result.status).not.toBe('valid');
    }
    // The same key signing for A itself is fine: the rule is about whose key it is.
    const own = await signedProof(
      claimOf({ orgId: orgA.orgId, name: 'Org A', keyId: keyIdOfA, ethAddress: keysOfA.secp256k1.address }),
      keysOfA,
    );
    expect(await verify({ proof: own })).toMatchObject({ status: 'valid', valid: true });
  });

  it('a proof signed by a retired key and dated after its retirement is not valid', async () => {
    const orgR = await newOrganization(stack, 'Retiring Org');
    const retired = forgerKeys();
    const retiredAt = Date.now() - HOUR;
    const keyId = await publish(orgR.orgId, retired, {
      status: 'retired',
      createdAt: retiredAt - 24 * HOUR,
      retiredAt,
    });
    const issuer = { orgId: orgR.orgId, name: 'Retiring Org', keyId, ethAddress: retired.secp256k1.address };
    const afterRetirement = await signedProof(
      claimOf(issuer, new Date(retiredAt + 60_000).toISOString()),
      retired,
    );
    for (const publicJwk of [undefined, retired.jwk]) {
      const result = await verify({ proof: afterRetirement, ...(publicJwk ? { publicJwk } : {}) });
      expect(result).toMatchObject({ status: 'invalid', valid: false, reason: 'key_retired' });
    }
    // Before its creation is outside its window too.
    const beforeCreation = await signedProof(
      claimOf(issuer, new Date(retiredAt - 48 * HOUR).toISOString()),
      retired,
    );
    expect(await verify({ proof: beforeCreation })).toMatchObject({
      valid: false,
      reason: 'key_not_yet_valid',
    });
    // While it was current, it still verifies.
    const whileCurrent = await signedProof(
      claimOf(issuer, new Date(retiredAt - HOUR).toISOString()),
      retired,
    );
    expect(await verify({ proof: whileCurrent })).toMatchObject({ status: 'valid', valid: true });
  });

  it('a demo-issuer proof, receipt or attestation is not valid outside demo mode', async () => {
    const demo = await stack.startTrust({ XV_TRUST_DEMO: '1' }, stack.trustDatabase);
    const demoReceipt: ReceiptView = await (
      await postJson(demo, '/api/seal', { modelId: 'demo-model', output: 'demo' })
    ).json();
    const demoAttestation = await (
      await postJson(demo, '/api/attestation', { schema: 's', subject: 'usr_x', claim: 'c' })
    ).json();
    const proof = JSON.stringify(demoReceipt.manifest);
    // In demo mode the demo issuer's proofs verify (the demo issuer is trusted there).
    expect(await (await postJson(demo, '/api/verify', { proof })).json()).toMatchObject({ valid: true });

    // The same database served outside demo mode: nothing of the demo issuer counts.
    expect(await verify({ proof })).toMatchObject({ valid: false, reason: 'demo_issuer' });
    const byReceipt = await (
      await stack.trust.fetch(`/api/verify?receiptId=${demoReceipt.receiptId}`)
    ).json();
    expect(byReceipt).toMatchObject({ status: 'invalid', valid: false, reason: 'demo_issuer' });
    const attestation = await (
      await stack.trust.fetch(`/api/attestations/${demoAttestation.attestationId}`)
    ).json();
    expect(attestation).toMatchObject({ valid: false, issuerVerified: false, reason: 'demo_issuer' });
    const { keys } = await jwks();
    expect(keys.filter((k: PublishedKey) => k.kid === 'org_demo')).toEqual([]);
    expect(await core.verifyProof(proof, await jwks())).toMatchObject({
      valid: false,
      reason: 'demo_issuer',
    });
  });

  it('the in-browser verifier reaches the same verdicts from the key set', async () => {
    const keySet = await jwks();
    const forger = forgerKeys();
    const forged = await signedProof(
      claimOf({
        orgId: acme.orgId,
        name: 'Acme Sealed',
        keyId: 'key_0forged00000000000000000000',
        ethAddress: forger.secp256k1.address,
      }),
      forger,
    );
    const verdict = await core.verifyProof(forged, keySet);
    expect(verdict).toMatchObject({
      status: 'invalid',
      valid: false,
      issuerVerified: false,
      reason: 'unknown_issuer_key',
    });
    // The words the page shows a person.
    expect(core.explain(verdict)).toBe(
      '✘ Not valid: Signed by a key Acme Sealed never published — this proof is not from Acme Sealed.',
    );
    expect(await core.verifyProof(JSON.stringify(receipt.manifest), keySet)).toMatchObject({
      status: 'valid',
      valid: true,
      signatureValid: true,
      issuerVerified: true,
    });
  });

  it.runIf(hasChromium())(
    'the verify page tells a person that a forged proof is not from the organization it names',
    async () => {
      const forger = forgerKeys();
      const forged = await signedProof(
        claimOf({
          orgId: acme.orgId,
          name: 'Acme Sealed',
          keyId: 'key_0forged00000000000000000000',
          ethAddress: forger.secp256k1.address,
        }),
        forger,
      );
      browser = await launchBrowser();
      const page = await browser.newPage();
      await page.goto(`${stack.trust.url}/verify`);
      await page.setInputFiles('#proof-file', {
        name: 'forged.proof.json',
        mimeType: 'application/json',
        buffer: Buffer.from(forged),
      });
      await page.waitForSelector('#result [data-status]');
      expect(await page.getAttribute('#result [data-status]', 'data-status')).toBe('invalid');
      const text = await page.textContent('#result');
      expect(text).toContain('Acme Sealed never published');
      expect(text).toContain('not from Acme Sealed');
      await page.close();
    },
  );
});
