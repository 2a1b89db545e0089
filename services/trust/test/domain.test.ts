/**
 * The trust domain without HTTP: keys at rest, rotation, and the tier policy where
 * it is enforced.
 */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type Database, migrate } from '@xv/platform';
import { describeEachDatabase, tempDir } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrustDb } from '../src/db.js';
import { KEK_FILE, loadTrustKek } from '../src/keys/kek.js';
import { Keyring, ROTATION_GRACE_MS } from '../src/keys/keyring.js';
import { migrations } from '../src/migrations/index.js';
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
