/**
 * @module oidc/keys
 * Each realm's provider keys, private parts sealed with identity's key-encryption key (as the credential
 * issuer's keys and TOTP secrets are). Signing keys rotate: when the newest is older than the rotation
 * period a new one is made and signs from then on, while the older ones stay in the JWKS for the grace period
 * so tokens they signed still verify; past it they are deleted. The cookie key signs the provider's own
 * cookies (its interaction and session cookies).
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { type KeyEncryptionKey, newId } from '@xv/platform';
import type { JWK } from 'oidc-provider';
import type { IdentityDb } from '../db.js';

const generate = promisify(generateKeyPair);

export interface KeyPolicy {
  /** A signing key this old is replaced by a new one. */
  rotationMs: number;
  /** How long a replaced key stays in the JWKS. */
  graceMs: number;
}

export interface RealmKeys {
  /** Private JWKs, newest (the one that signs) first. */
  signing: JWK[];
  cookieKeys: string[];
  /** When the newest signing key is due for rotation. */
  rotateAt: number;
}

const context = (realmId: string, kid: string) => `oidc-key:${realmId}:${kid}`;

export async function loadRealmKeys(
  db: IdentityDb,
  kek: KeyEncryptionKey,
  realmId: string,
  policy: KeyPolicy,
  now = Date.now(),
): Promise<RealmKeys> {
  let rows = await keyRows(db, realmId);
  const newestSigning = rows.find((row) => row.use === 'sig');
  if (!newestSigning || now - newestSigning.created_at >= policy.rotationMs) {
    await addSigningKey(db, kek, realmId, now);
    rows = await keyRows(db, realmId);
  }
  if (!rows.some((row) => row.use === 'cookie')) {
    await insertKey(db, kek, realmId, 'cookie', randomBytes(32).toString('base64url'), now);
    rows = await keyRows(db, realmId);
  }
  const signingRows = rows.filter((row) => row.use === 'sig');
  const current = signingRows[0]!;
  // A replaced key is kept while tokens it signed may still be presented.
  const kept = signingRows.filter(
    (_row, index) => index === 0 || now - signingRows[index - 1]!.created_at < policy.graceMs,
  );
  const retired = signingRows.filter((row) => !kept.includes(row)).map((row) => row.kid);
  if (retired.length > 0) await db.deleteFrom('oidc_keys').where('kid', 'in', retired).execute();
  return {
    signing: kept.map(
      (row) => JSON.parse(kek.decrypt(row.sealed, context(realmId, row.kid)).toString()) as JWK,
    ),
    cookieKeys: rows
      .filter((row) => row.use === 'cookie')
      .map((row) => kek.decrypt(row.sealed, context(realmId, row.kid)).toString()),
    rotateAt: current.created_at + policy.rotationMs,
  };
}

function keyRows(db: IdentityDb, realmId: string) {
  return db
    .selectFrom('oidc_keys')
    .selectAll()
    .where('realm_id', '=', realmId)
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
}

async function addSigningKey(db: IdentityDb, kek: KeyEncryptionKey, realmId: string, now: number) {
  const { privateKey } = await generate('rsa', { modulusLength: 2048 });
  const kid = newId('key');
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  await insertKey(db, kek, realmId, 'sig', JSON.stringify(jwk), now, kid);
}

async function insertKey(
  db: IdentityDb,
  kek: KeyEncryptionKey,
  realmId: string,
  use: 'sig' | 'cookie',
  secret: string,
  now: number,
  kid = newId('key'),
) {
  await db
    .insertInto('oidc_keys')
    .values({
      kid,
      realm_id: realmId,
      use,
      sealed: kek.encrypt(Buffer.from(secret), context(realmId, kid)),
      created_at: now,
    })
    .execute();
}
