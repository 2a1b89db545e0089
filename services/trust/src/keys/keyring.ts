/**
 * @module keys/keyring
 * Issuer keys: each organization signs with a P-256 key and a secp256k1 key,
 * generated together on first use. Rotation retires the active pair (it stays
 * published, so old receipts keep verifying, but nothing dated after its retirement
 * does) and the next use creates a new one.
 * Decrypted keys are kept in memory by key id (and copied, in memory, to the signing
 * threads: seal/signing-pool.ts); a key id never changes content.
 */
import { createPrivateKey, createSecretKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type KeyEncryptionKey, newId } from '@xv/platform';
import type { Hex } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { IssuerKeysTable, TrustDb } from '../db.js';

export interface P256PublicJwk {
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
}

export interface IssuerKey {
  keyId: string;
  orgId: string;
  did: string;
  status: 'active' | 'retired';
  jwk: P256PublicJwk;
  ethAddress: Hex;
  createdAt: number;
  retiredAt: number | null;
}

export interface SigningKey extends IssuerKey {
  p256Private: KeyObject;
  secp256k1: PrivateKeyAccount;
  /** The 32-byte secp256k1 scalar, as a KeyObject: it can be posted to a signing thread and never prints. */
  secp256k1Private: KeyObject;
}

/** How long the active key of an organization is reused before the database is asked again. */
const ACTIVE_KEY_TTL_MS = 5000;

/**
 * A retired key stays valid this long after the rotation: other instances keep signing
 * with it until their cached active key expires (ACTIVE_KEY_TTL_MS), and their clocks
 * may run a little ahead. Proofs dated later than `retiredAt` are refused.
 */
export const ROTATION_GRACE_MS = ACTIVE_KEY_TTL_MS + 25_000;

/** How long verifications reuse a key entry read from the database (see `key`). */
export const PUBLISHED_KEY_TTL_MS = 5000;
const MAX_PUBLISHED_KEYS = 10_000;

export class Keyring {
  private readonly unlocked = new Map<string, SigningKey>();
  private readonly active = new Map<string, { keyId: string; expires: number }>();
  /** Key entries by `orgId keyId`, with the time their read began. */
  private readonly published = new Map<string, { key: IssuerKey; readAt: number }>();

  constructor(
    private readonly db: TrustDb,
    private readonly kek: KeyEncryptionKey,
  ) {}

  /** The organization's active signing key, created on first use. */
  async signingKey(issuer: { orgId: string; did: string }): Promise<SigningKey> {
    // A rotation made by another process is picked up within ACTIVE_KEY_TTL_MS.
    const known = this.active.get(issuer.orgId);
    const cached = known && known.expires > Date.now() ? this.unlocked.get(known.keyId) : undefined;
    if (cached) return cached;
    const row = (await this.activeRow(issuer.orgId)) ?? (await this.create(issuer.orgId, issuer.did));
    if (this.active.size > 10_000) this.active.clear();
    this.active.set(issuer.orgId, { keyId: row.key_id, expires: Date.now() + ACTIVE_KEY_TTL_MS });
    return this.unlock(row);
  }

  /**
   * A key of an organization by id, active or retired, to judge a statement dated `at`
   * (Unix ms). An entry read in the last PUBLISHED_KEY_TTL_MS is reused, and gives the
   * verdict a fresh read would: a rotation here drops the organization's entries, and one
   * made elsewhere dates the retirement ROTATION_GRACE_MS ahead, so an entry read before it
   * judges alike every statement dated up to its read + ROTATION_GRACE_MS (later ones are
   * read afresh). A retired entry never changes again. Only a hand edit of the table (a
   * revocation) takes up to PUBLISHED_KEY_TTL_MS to be seen.
   */
  async key(orgId: string, keyId: string, at = Number.NaN): Promise<IssuerKey | undefined> {
    const cacheKey = `${orgId} ${keyId}`;
    const now = Date.now();
    const known = this.published.get(cacheKey);
    if (
      known &&
      now - known.readAt < PUBLISHED_KEY_TTL_MS &&
      (known.key.status === 'retired' || at <= known.readAt + ROTATION_GRACE_MS)
    )
      return known.key;
    const row = await this.db
      .selectFrom('issuer_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    if (!row) return undefined;
    const key = toIssuerKey(row);
    if (this.published.size >= MAX_PUBLISHED_KEYS) this.published.clear();
    this.published.set(cacheKey, { key, readAt: now });
    return key;
  }

  /** Whether the organization has any key, active or retired. */
  async hasKeys(orgId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('issuer_keys')
      .select('key_id')
      .where('org_id', '=', orgId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Every published key: active ones and retired ones. */
  async all(): Promise<IssuerKey[]> {
    const rows = await this.db
      .selectFrom('issuer_keys')
      .selectAll()
      .orderBy('org_id')
      .orderBy('created_at')
      .execute();
    return rows.map(toIssuerKey);
  }

  /** Retires the active key of `orgId` and creates its successor (an operator action). */
  async rotate(issuer: {
    orgId: string;
    did: string;
  }): Promise<{ retired: string | null; active: IssuerKey }> {
    const { orgId } = issuer;
    const current = await this.activeRow(orgId);
    if (current)
      await this.db
        .updateTable('issuer_keys')
        .set({ status: 'retired', retired_at: Date.now() + ROTATION_GRACE_MS })
        .where('key_id', '=', current.key_id)
        .where('status', '=', 'active')
        .execute();
    this.active.delete(orgId);
    for (const [cacheKey, { key }] of this.published)
      if (key.orgId === orgId) this.published.delete(cacheKey);
    const next = await this.create(orgId, current?.did ?? issuer.did);
    return { retired: current?.key_id ?? null, active: toIssuerKey(next) };
  }

  private activeRow(orgId: string) {
    return this.db
      .selectFrom('issuer_keys')
      .selectAll()
      .where('org_id', '=', orgId)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }

  private async create(orgId: string, did: string): Promise<IssuerKeysTable> {
    const keyId = newId('key');
    const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const { x, y } = p256.publicKey.export({ format: 'jwk' });
    const secp256k1 = generatePrivateKey();
    const row: IssuerKeysTable = {
      key_id: keyId,
      org_id: orgId,
      did,
      status: 'active',
      p256_jwk: JSON.stringify({ kty: 'EC', crv: 'P-256', x, y }),
      p256_private: this.kek.encrypt(
        p256.privateKey.export({ format: 'der', type: 'pkcs8' }),
        `${keyId}:p256`,
      ),
      secp256k1_private: this.kek.encrypt(Buffer.from(secp256k1.slice(2), 'hex'), `${keyId}:secp256k1`),
      eth_address: privateKeyToAccount(secp256k1).address,
      created_at: Date.now(),
      retired_at: null,
    };
    try {
      await this.db.insertInto('issuer_keys').values(row).execute();
      return row;
    } catch (error) {
      // Another request created the organization's key at the same moment: use that one.
      const winner = await this.activeRow(orgId);
      if (winner) return winner;
      throw error;
    }
  }

  private unlock(row: IssuerKeysTable): SigningKey {
    const cached = this.unlocked.get(row.key_id);
    if (cached) return cached;
    const p256 = this.kek.decrypt(row.p256_private, `${row.key_id}:p256`);
    const secp = this.kek.decrypt(row.secp256k1_private, `${row.key_id}:secp256k1`);
    const key: SigningKey = {
      ...toIssuerKey(row),
      p256Private: createPrivateKey({ key: p256, format: 'der', type: 'pkcs8' }),
      secp256k1: privateKeyToAccount(`0x${secp.toString('hex')}`),
      secp256k1Private: createSecretKey(secp),
    };
    // The key objects hold their own copies: wipe the plaintext buffers.
    p256.fill(0);
    secp.fill(0);
    this.unlocked.set(row.key_id, key);
    return key;
  }
}

/** A key entry; frozen, since verifications share the ones they reuse. */
function toIssuerKey(row: IssuerKeysTable): IssuerKey {
  return Object.freeze({
    keyId: row.key_id,
    orgId: row.org_id,
    did: row.did,
    status: row.status,
    jwk: Object.freeze(JSON.parse(row.p256_jwk) as P256PublicJwk),
    ethAddress: row.eth_address as Hex,
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  });
}
