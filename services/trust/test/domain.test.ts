/**
 * The trust domain without HTTP: keys at rest, rotation, and the tier policy where
 * it is enforced.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, migrate } from '@xv/platform';
import { describeEachDatabase, tempDir } from '@xv/platform/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TrustDb } from '../src/db.js';
import { KEK_FILE, loadTrustKek } from '../src/keys/kek.js';
import { Keyring, PUBLISHED_KEY_TTL_MS, ROTATION_GRACE_MS } from '../src/keys/keyring.js';
import { migrations } from '../src/migrations/index.js';
import { signManifest } from '../src/seal/manifest.js';
import { createTrust, type Trust } from '../src/trust.js';

const ISSUER = {
  orgId: 'org_0000000000000000000000acme',
  name: 'Acme',
  did: 'did:web:id.test:o:acme',
  verified: true,
};

describeEachDatabase('the trust domain', (target) => {
  let trust: Trust;
  let database: Database;
  let dataDir: string;
  let kek: string;

  beforeAll(async () => {
    database = await target.open('trust');
    await migrate(database, migrations);
    dataDir = tempDir();
    kek = randomBytes(32).toString('hex');
    trust = createTrust({
      database,
      kek,
      dataDir,
      demo: false,
      trustUrl: 'http://trust.test',
      identityUrl: 'http://127.0.0.1:9',
      relayer: { url: 'http://127.0.0.1:9', token: 'unused-token-0123456789abcdef' },
      chainRpcUrl: 'http://127.0.0.1:9',
      inputLimitBytes: 1024,
      anchorDailyBudget: 10,
      signingThreads: 1,
    });
  });
  afterAll(() => trust.close());

  it('seals tier 2 and 3 for an AAL3 session, and refuses them below AAL3', async () => {
    const receipt = await trust.receipts.seal({
      issuer: ISSUER,
      authLevel: 'AAL3',
      modelId: 'm',
      output: 'o',
      tier: 2,
    });
    expect(receipt.manifest.claim).toMatchObject({ tier: 2, authLevel: 'AAL3' });
    expect((await trust.receipts.verifyReceipt(receipt.receiptId)).status).toBe('valid');
    await expect(
      trust.receipts.seal({ issuer: ISSUER, authLevel: 'AAL2', modelId: 'm', output: 'o', tier: 3 }),
    ).rejects.toMatchObject({ code: 'stepup_required' });
  });

  it('keeps private keys encrypted at rest, bound to their key id', async () => {
    const key = await trust.keyring.signingKey(ISSUER);
    const row = await (database.kysely as TrustDb)
      .selectFrom('issuer_keys')
      .selectAll()
      .where('key_id', '=', key.keyId)
      .executeTakeFirstOrThrow();
    expect(row.secp256k1_private.startsWith('v1.')).toBe(true);
    expect(row.p256_private.startsWith('v1.')).toBe(true);
    const p256Pkcs8 = key.p256Private.export({ format: 'der', type: 'pkcs8' });
    const privateScalar = key.p256Private.export({ format: 'jwk' }).d!;
    expect(JSON.stringify(row)).not.toContain(privateScalar);
    expect(JSON.stringify(row)).not.toContain(p256Pkcs8.toString('base64url').slice(-40));
    expect(JSON.stringify(row)).not.toContain(p256Pkcs8.toString('hex').slice(-40));
    const right = loadTrustKek(kek, dataDir);
    expect(right.decrypt(row.secp256k1_private, `${key.keyId}:secp256k1`)).toHaveLength(32);
    expect(() => right.decrypt(row.secp256k1_private, 'key_other:secp256k1')).toThrow();
    const wrong = loadTrustKek(randomBytes(32).toString('hex'), dataDir);
    expect(() => wrong.decrypt(row.secp256k1_private, `${key.keyId}:secp256k1`)).toThrow();
  });

  it('rotates: the old key is retired but still verifies what it signed; new seals use the new key', async () => {
    const issuer = { ...ISSUER, orgId: 'org_00000000000000000000rotate' };
    const before = await trust.receipts.seal({
      issuer,
      authLevel: 'AAL1',
      modelId: 'm',
      output: 'o',
      tier: 1,
    });
    const { retired, active } = await trust.keyring.rotate(issuer);
    expect(retired).toBe(before.keyId);
    const after = await trust.receipts.seal({
      issuer,
      authLevel: 'AAL1',
      modelId: 'm',
      output: 'o',
      tier: 1,
    });
    expect(after.keyId).toBe(active.keyId);
    const keys = (await trust.keyring.all()).filter((k) => k.orgId === issuer.orgId);
    expect(keys.map((k) => [k.keyId, k.status])).toEqual([
      [before.keyId, 'retired'],
      [active.keyId, 'active'],
    ]);
    expect((await trust.receipts.verifyReceipt(before.receiptId)).status).toBe('valid');
    expect((await trust.receipts.verifyReceipt(after.receiptId)).status).toBe('valid');
  });

  it('still verifies what another instance sealed with its cached key just after a rotation', async () => {
    const issuer = { ...ISSUER, orgId: 'org_000000000000000000000grace' };
    await trust.receipts.seal({ issuer, authLevel: 'AAL1', modelId: 'm', output: 'o', tier: 1 });
    // Another instance (the operator command) rotates; this one keeps its active key a few seconds.
    const operator = new Keyring(database.kysely as TrustDb, loadTrustKek(kek, dataDir));
    const { retired } = await operator.rotate(issuer);
    const sealed = await trust.receipts.seal({
      issuer,
      authLevel: 'AAL1',
      modelId: 'm',
      output: 'o',
      tier: 1,
    });
    expect(sealed.keyId).toBe(retired);
    expect(await trust.receipts.verifyReceipt(sealed.receiptId)).toMatchObject({
      status: 'valid',
      valid: true,
    });
    const key = (await trust.keyring.all()).find((k) => k.keyId === retired)!;
    expect(key.status).toBe('retired');
    expect(key.retiredAt! - Date.now()).toBeGreaterThan(0);
    expect(key.retiredAt! - Date.now()).toBeLessThanOrEqual(ROTATION_GRACE_MS);
  });

  describe('key entries reused by verifications', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** A receipt of `orgId`, verified once (so its key entry is kept), and its signing key. */
    const sealedAndVerified = async (orgId: string) => {
      const issuer = { ...ISSUER, orgId };
      const receipt = await trust.receipts.seal({
        issuer,
        authLevel: 'AAL1',
        modelId: 'm',
        output: 'o',
        tier: 1,
      });
      expect(await trust.receipts.verifyProof(JSON.stringify(receipt.manifest))).toMatchObject({
        valid: true,
      });
      return { issuer, receipt, key: await trust.keyring.signingKey(issuer) };
    };
    /** The same claim re-dated and signed again with `key`: what only a holder of the key can make. */
    const redated = async (
      receipt: { manifest: { claim: object } },
      key: Awaited<ReturnType<Trust['keyring']['signingKey']>>,
      at: number,
    ) => {
      const claim = { ...(receipt.manifest.claim as Parameters<typeof signManifest>[0]) };
      return JSON.stringify(await signManifest({ ...claim, issuedAt: new Date(at).toISOString() }, key));
    };

    for (const where of ['this process', 'another process'] as const)
      it(`refuse at once what a key signed after its retirement, when ${where} rotates`, async () => {
        const { issuer, receipt, key } = await sealedAndVerified(
          where === 'this process' ? 'org_000000000000000000cachehere' : 'org_00000000000000000cachethere',
        );
        const rotating =
          where === 'this process'
            ? trust.keyring
            : new Keyring(database.kysely as TrustDb, loadTrustKek(kek, dataDir));
        await rotating.rotate(issuer);
        const retiredAt = (await trust.keyring.all()).find((k) => k.keyId === key.keyId)!.retiredAt!;
        expect(await trust.receipts.verifyProof(await redated(receipt, key, retiredAt + 1000))).toMatchObject(
          {
            valid: false,
            reason: 'key_retired',
          },
        );
        // Dated inside the grace, it holds, as it would with a fresh read.
        expect(await trust.receipts.verifyProof(await redated(receipt, key, retiredAt - 1000))).toMatchObject(
          {
            valid: true,
          },
        );
      });

    it('see a key revoked by hand in the database within PUBLISHED_KEY_TTL_MS', async () => {
      const { receipt, key } = await sealedAndVerified('org_0000000000000000cacherevoke');
      await (database.kysely as TrustDb)
        .updateTable('issuer_keys')
        .set({ status: 'retired', retired_at: null })
        .where('key_id', '=', key.keyId)
        .execute();
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + PUBLISHED_KEY_TTL_MS });
      expect(await trust.receipts.verifyProof(JSON.stringify(receipt.manifest))).toMatchObject({
        valid: false,
        reason: 'key_retired',
      });
    });
  });

  it('creates one key when two first seals of an organization race', async () => {
    const issuer = { ...ISSUER, orgId: 'org_0000000000000000000000race' };
    const keys = await Promise.all(Array.from({ length: 5 }, () => trust.keyring.signingKey(issuer)));
    expect(new Set(keys.map((k) => k.keyId)).size).toBe(1);
  });
});

describe('the key-encryption key', () => {
  it('is generated once into <XV_DATA_DIR>/trust-kek (0600) on the embedded default', () => {
    const dir = tempDir();
    const sealed = loadTrustKek(undefined, dir).encrypt(Buffer.from('secret'), 'ctx');
    expect(statSync(join(dir, KEK_FILE)).mode & 0o777).toBe(0o600);
    expect(loadTrustKek(undefined, dir).decrypt(sealed, 'ctx').toString()).toBe('secret');
  });
});
