/**
 * @module credentials/status/status-list
 * Revocation published as an IETF Token Status List (`statuslist+jwt`, one bit a
 * credential: 0 valid, 1 revoked). Every credential gets a random free slot in the
 * newest open list, so neighbouring indexes say nothing about issuance order; a
 * list is closed once half its slots are reserved. The signed list is cached until a
 * revocation bumps its version.
 */
import { randomInt } from 'node:crypto';
import { StatusList } from '@sd-jwt/jwt-status-list';
import { newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { IssuerKeyring } from '../keys/issuer-keys.js';
import { signEs256 } from '../sd-jwt/jws.js';
import type { CredentialTables } from '../tables.js';

type Db = Kysely<CredentialTables>;

export const STATUS_VALID = 0;
export const STATUS_REVOKED = 1;
/** 2^17 slots: 16 KiB of bits, a few hundred bytes compressed while sparse. */
const LIST_SIZE = 131_072;
const LIST_CAPACITY = LIST_SIZE / 2;
/** How long a verifier may cache a fetched list (the `ttl` claim), seconds. */
export const STATUS_TTL_SECONDS = 300;
const SLOT_ATTEMPTS = 20;
/** How long a list's revoked slots are reused by the verifier, ms. */
const STATUS_CACHE_MS = 1000;
/** Slots an instance reserves at once (a reservation it does not use up is only lost capacity). */
const RESERVE_BLOCK = 64;

export interface StatusSlot {
  listId: string;
  idx: number;
}

export class StatusLists {
  private readonly signed = new Map<string, { version: number; kid: string; jwt: string; exp: number }>();
  private readonly revoked = new Map<string, { at: number; slots: Set<number> }>();
  private block: { listId: string; remaining: number } | undefined;
  private reserving: Promise<{ listId: string; remaining: number }> | undefined;

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

  /**
   * Runs `store` with a random slot of an open list until it succeeds; `store`
   * answers false when the slot turned out to be taken.
   */
  async withFreeSlot<T>(store: (slot: StatusSlot) => Promise<T | false>): Promise<T> {
    const listId = await this.reserve();
    for (let attempt = 0; attempt < SLOT_ATTEMPTS; attempt++) {
      const stored = await store({ listId, idx: randomInt(LIST_SIZE) });
      if (stored !== false) return stored;
    }
    throw new Error('No free status list slot was found.');
  }

  /** One slot of the open list, reserved in blocks: one write per RESERVE_BLOCK issuances. */
  private async reserve(): Promise<string> {
    if (this.block && this.block.remaining > 0) {
      this.block.remaining -= 1;
      return this.block.listId;
    }
    this.reserving ??= this.reserveBlock().finally(() => {
      this.reserving = undefined;
    });
    this.block = await this.reserving;
    return this.reserve();
  }

  private async reserveBlock(): Promise<{ listId: string; remaining: number }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const open = await this.db
        .selectFrom('status_lists')
        .select('id')
        .where('allocated', '<=', LIST_CAPACITY - RESERVE_BLOCK)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      if (!open) {
        const id = newId('sl');
        await this.db
          .insertInto('status_lists')
          .values({
            id,
            bits: 1,
            size: LIST_SIZE,
            allocated: RESERVE_BLOCK,
            version: 0,
            created_at: Date.now(),
          })
          .execute();
        return { listId: id, remaining: RESERVE_BLOCK };
      }
      const taken = await this.db
        .updateTable('status_lists')
        .set((eb) => ({ allocated: eb('allocated', '+', RESERVE_BLOCK) }))
        .where('id', '=', open.id)
        .where('allocated', '<=', LIST_CAPACITY - RESERVE_BLOCK)
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) > 0) return { listId: open.id, remaining: RESERVE_BLOCK };
    }
    throw new Error('Could not reserve status list slots.');
  }

  /**
   * The status of one slot, from the same records the published list is built from.
   * A list's revoked slots are kept for STATUS_CACHE_MS; a revocation through this
   * instance drops them at once (another instance's shows within that time).
   */
  async statusOf(listId: string, idx: number): Promise<number | undefined> {
    const now = Date.now();
    let cached = this.revoked.get(listId);
    if (!cached || now - cached.at > STATUS_CACHE_MS) {
      const list = await this.db
        .selectFrom('status_lists')
        .select('id')
        .where('id', '=', listId)
        .executeTakeFirst();
      if (!list) return undefined;
      const rows = await this.db
        .selectFrom('credentials')
        .select('status_idx')
        .where('status_list_id', '=', listId)
        .where('revoked_at', 'is not', null)
        .execute();
      cached = { at: now, slots: new Set(rows.map((r) => r.status_idx)) };
      this.revoked.set(listId, cached);
    }
    return cached.slots.has(idx) ? STATUS_REVOKED : STATUS_VALID;
  }

  /** Marks a list as changed, so the next fetch signs a fresh list and the next check reads it again. */
  async touch(listId: string): Promise<void> {
    this.revoked.delete(listId);
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
