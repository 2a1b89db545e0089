/**
 * @module credentials/status-list
 * Revocation published as an IETF Token Status List (`statuslist+jwt`, one bit a
 * credential: 0 valid, 1 revoked). Every credential gets a random free slot in the
 * newest open list, so neighbouring indexes say nothing about issuance order; a
 * list is closed once half its slots are taken. The signed list is cached until a
 * revocation bumps its version.
 */
import { randomInt } from 'node:crypto';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import { signEs256 } from './jws.js';
import type { IssuerKeyring } from './keys/issuer-keys.js';
import type { CredentialTables } from './tables.js';

type Db = Kysely<CredentialTables>;

export const STATUS_VALID = 0;
export const STATUS_REVOKED = 1;
/** 2^17 slots: 16 KiB of bits, a few hundred bytes compressed while sparse. */
const LIST_SIZE = 131_072;
const LIST_CAPACITY = LIST_SIZE / 2;
/** How long a verifier may cache a fetched list (the `ttl` claim), seconds. */
export const STATUS_TTL_SECONDS = 300;
const SLOT_ATTEMPTS = 20;

export interface StatusSlot {
  listId: string;
  idx: number;
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT'));
}

export class StatusLists {
  private readonly signed = new Map<string, { version: number; kid: string; jwt: string; exp: number }>();

  constructor(
    private readonly db: Db,
    private readonly keyring: IssuerKeyring,
    private readonly issuerDid: string,
    private readonly baseUrl: string,
  ) {}

  uriOf(listId: string): string {
    return `${this.baseUrl}/status/${listId}`;
  }

  /** The list id a status URI of ours names, or undefined for anyone else's URI. */
  listIdOf(uri: string): string | undefined {
    const prefix = `${this.baseUrl}/status/`;
    return uri.startsWith(prefix) ? uri.slice(prefix.length) : undefined;
  }

  /** Runs `store` with a free slot until it succeeds; `store` throws a unique violation when the slot is taken. */
  async withFreeSlot<T>(store: (slot: StatusSlot) => Promise<T>): Promise<T> {
    const listId = await this.reserveInOpenList();
    for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
      try {
        return await store({ listId, idx: randomInt(LIST_SIZE) });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw new Error('No free status list slot was found.');
  }

  private async reserveInOpenList(): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const open = await this.db
        .selectFrom('status_lists')
        .select('id')
        .where('allocated', '<', LIST_CAPACITY)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (!open) {
        const id = newId('sl');
        await this.db
          .insertInto('status_lists')
          .values({ id, bits: 1, size: LIST_SIZE, allocated: 1, version: 0, created_at: Date.now() })
          .execute();
        return id;
      }
      const taken = await this.db
        .updateTable('status_lists')
        .set((eb) => ({ allocated: eb('allocated', '+', 1) }))
        .where('id', '=', open.id)
        .where('allocated', '<', LIST_CAPACITY)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) return open.id;
    }
    throw new Error('Could not reserve a status list slot.');
  }

  /** The status of one slot, read from the same records the published list is built from. */
  async statusOf(listId: string, idx: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('credentials')
      .select('revoked_at')
      .where('status_list_id', '=', listId)
      .where('status_idx', '=', idx)
      .executeTakeFirst();
    if (!row) return undefined;
    return row.revoked_at === null ? STATUS_VALID : STATUS_REVOKED;
  }

  /** Marks a slot's list as changed, so the next fetch signs a fresh list. */
  async touch(listId: string): Promise<void> {
    await this.db
      .updateTable('status_lists')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', listId)
      .execute();
  }

  /** The signed Status List Token of a list, or undefined when there is no such list. */
  async statusListToken(listId: string): Promise<string | undefined> {
    const list = await this.db
      .selectFrom('status_lists')
      .selectAll()
      .where('id', '=', listId)
      .executeTakeFirst();
    if (!list) return undefined;
    const key = await this.keyring.signingKey();
    const now = Math.floor(Date.now() / 1000);
    const cached = this.signed.get(listId);
    if (
      cached &&
      cached.version === list.version &&
      cached.kid === key.kid &&
      cached.exp - now > STATUS_TTL_SECONDS
    )
      return cached.jwt;
    const revoked = await this.db
      .selectFrom('credentials')
      .select('status_idx')
      .where('status_list_id', '=', listId)
      .where('revoked_at', 'is not', null)
      .execute();
    const bits = new Array<number>(list.size).fill(STATUS_VALID);
    for (const row of revoked) bits[row.status_idx] = STATUS_REVOKED;
    const exp = now + 24 * 3600;
    const jwt = signEs256(
      { typ: 'statuslist+jwt', kid: `${this.issuerDid}#${key.kid}` },
      {
        iss: this.issuerDid,
        sub: this.uriOf(listId),
        iat: now,
        exp,
        ttl: STATUS_TTL_SECONDS,
        status_list: { bits: 1, lst: new StatusList(bits, 1).compressStatusList() },
      },
      key.privateKey,
    );
    this.signed.set(listId, { version: list.version, kid: key.kid, jwt, exp });
    return jwt;
  }
}
