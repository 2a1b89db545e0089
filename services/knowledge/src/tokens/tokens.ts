/**
 * @module tokens/tokens
 * Personal access tokens: `xkb_` + 256 random bits, shown once, stored as their
 * SHA-256. A token belongs to its owner and to the organization that was active
 * when it was created, and acts as that owner there with its scopes only. The
 * last-used time is written at most once a minute per token, so a busy agent does
 * not turn every search into a write.
 *
 * A token lives no longer than the membership it was made under: on each use the
 * owner's standing in the token's organization is asked of identity (answers kept a
 * few seconds and dropped as soon as identity reports a revocation). When the owner
 * has left the organization or their account is disabled, the token is revoked for
 * good: adding the person back later does not bring it back. Neither scope needs
 * more than membership, and a token carries no role permission (reviewing takes a
 * session), so a change of role leaves its tokens as they are.
 */
import { hashToken, type MembershipSource, newId, newSecretToken } from '@xv/platform';
import type { Caller, Scope } from '../access/caller.js';
import type { KnowledgeDatabase } from '../db.js';
import { errors } from '../errors.js';

export const TOKEN_PREFIX = 'xkb';
const LAST_USED_RESOLUTION_MS = 60_000;
const TOKEN_SHAPE = /^xkb_[A-Za-z0-9_-]{43}$/;

export interface TokenOwner {
  userId: string;
  email: string;
  orgId: string;
}

export interface TokenSummary {
  id: string;
  name: string;
  scopes: Scope[];
  createdAt: string;
  lastUsedAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class TokenStore {
  constructor(
    private readonly database: KnowledgeDatabase,
    private readonly memberships: MembershipSource,
  ) {}

  private get db() {
    return this.database.kysely;
  }

  async create(owner: TokenOwner, name: string, scopes: Scope[]) {
    const token = newSecretToken(TOKEN_PREFIX);
    const id = newId('pat');
    const unique = [...new Set(scopes)];
    await this.db
      .insertInto('access_tokens')
      .values({
        id,
        org_id: owner.orgId,
        owner_id: owner.userId,
        owner_email: owner.email,
        name,
        token_hash: hashToken(token),
        scopes: JSON.stringify(unique),
        created_at: Date.now(),
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    return { id, token, scopes: unique };
  }

  /** The owner's live tokens in that organization (never the secrets). */
  async list(owner: TokenOwner): Promise<TokenSummary[]> {
    const rows = await this.db
      .selectFrom('access_tokens')
      .select(['id', 'name', 'scopes', 'created_at', 'last_used_at'])
      .where('owner_id', '=', owner.userId)
      .where('org_id', '=', owner.orgId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      scopes: JSON.parse(r.scopes) as Scope[],
      createdAt: iso(r.created_at)!,
      lastUsedAt: iso(r.last_used_at),
    }));
  }

  async revoke(owner: TokenOwner, id: string) {
    const result = await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: Date.now() })
      .where('id', '=', id)
      .where('owner_id', '=', owner.userId)
      .where('org_id', '=', owner.orgId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw errors.token_not_found();
  }

  /** The caller a bearer token stands for, or undefined when it is unknown or revoked. */
  async authenticate(token: string): Promise<Caller | undefined> {
    if (!TOKEN_SHAPE.test(token)) return undefined;
    // Looked up by its hash: the secret itself is never compared or stored.
    const row = await this.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const standing = await this.memberships.membershipOf(row.owner_id, row.org_id);
    if (!standing.member || !standing.active) {
      await this.db
        .updateTable('access_tokens')
        .set({ revoked_at: Date.now() })
        .where('id', '=', row.id)
        .where('revoked_at', 'is', null)
        .execute();
      return undefined;
    }
    const now = Date.now();
    if (row.last_used_at === null || now - row.last_used_at >= LAST_USED_RESOLUTION_MS) {
      await this.db
        .updateTable('access_tokens')
        .set({ last_used_at: now })
        .where('id', '=', row.id)
        .execute();
    }
    return {
      userId: row.owner_id,
      email: row.owner_email,
      orgId: row.org_id,
      via: 'token',
      scopes: JSON.parse(row.scopes) as string[],
      permissions: [],
    };
  }
}
