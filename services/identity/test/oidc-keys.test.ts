/**
 * The OpenID Provider's signing keys: sealed at rest, rotated, and kept in the JWKS for a grace period.
 */
import { randomBytes } from 'node:crypto';
import { KeyEncryptionKey } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { Tables } from '../src/db.js';
import { loadRealmKeys } from '../src/oidc/keys.js';
import { startIdentity } from '../src/testing/index.js';

const DAY = 24 * 3600 * 1000;

describeEachDatabase('OpenID Provider signing keys', (target) => {
  it('rotates after the rotation period, keeps the old key for the grace period, then drops it; private parts sealed', async () => {
    const database = await target.open<Tables>('identity_oidc_keys');
    await startIdentity(database);
    const db = database.kysely;
    const kek = KeyEncryptionKey.fromBytes(randomBytes(32));
    const policy = { rotationMs: 90 * DAY, graceMs: 7 * DAY };
    const start = Date.now();

    const first = await loadRealmKeys(db, kek, 'default', policy, start);
    expect(first.signing).toHaveLength(1);
    expect(first.signing[0]!.d).toBeTruthy();
    expect(first.rotateAt).toBe(start + 90 * DAY);
    const same = await loadRealmKeys(db, kek, 'default', policy, start + DAY);
    expect(same.signing.map((key) => key.kid)).toEqual(first.signing.map((key) => key.kid));

    const rotated = await loadRealmKeys(db, kek, 'default', policy, start + 91 * DAY);
    expect(rotated.signing).toHaveLength(2);
    expect(rotated.signing[1]!.kid).toBe(first.signing[0]!.kid);
    const later = await loadRealmKeys(db, kek, 'default', policy, start + 99 * DAY);
    expect(later.signing.map((key) => key.kid)).toEqual([rotated.signing[0]!.kid]);

    const rows = await db.selectFrom('oidc_keys').selectAll().where('realm_id', '=', 'default').execute();
    for (const row of rows) expect(row.sealed).not.toMatch(/"d"|"kty"/);
    // Another key-encryption key cannot open them.
    await expect(
      loadRealmKeys(db, KeyEncryptionKey.fromBytes(randomBytes(32)), 'default', policy, start + 99 * DAY),
    ).rejects.toThrow();
  });
});
