/**
 * @module sessions/store
 * A session's state in the database: its settings, its messages, and the lease
 * that makes one turn at a time hold across instances. A lease is a row lock by
 * agreement: the holder's id, an expiry it renews while working, and a fencing
 * token (`lease_fence`, +1 on every grant). Every write made under a lease checks
 * the token, so a holder that lost its lease (paused past the expiry) can no
 * longer change the session. Works the same on SQLite and PostgreSQL.
 */
import { type Database, newId, transaction } from '@xv/platform';
import type { ModelProvider } from '@xv/platform/ai';
import { type Kysely, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import type { Tables } from '../db.js';

type SessionUpdate = UpdateQueryBuilder<Tables, 'agent_sessions', 'agent_sessions', UpdateResult>;

/** Which model answers a session; extra fields a client sends are kept as they are. */
export interface Route {
  provider: ModelProvider;
  model?: string;
  useGateway?: boolean;
  [field: string]: unknown;
}

export type MessageRole = 'user' | 'assistant';

export interface StoredMessage {
  id: string;
  role: MessageRole;
  content: string;
  ts: number;
  /** Tools the agent used while writing this answer. */
  tools?: string[];
}

export interface SessionRecord {
  id: string;
  tenant: string;
  /** Null: the service's default route. */
  route: Route | null;
  /** Null: the service's default system prompt. */
  systemPrompt: string | null;
  rev: number;
  messageCount: number;
}

export interface Lease {
  sessionId: string;
  owner: string;
  fence: number;
  /** The session's revision when the lease was granted. */
  rev: number;
}

export const DEFAULT_TENANT = 'default';

/** What a session starts with: its owner, and its tenant until a config changes it. */
export interface SessionDefaults {
  owner: string;
  tenant: string;
}

export const NO_OWNER: SessionDefaults = { owner: '', tenant: DEFAULT_TENANT };

/** The lease was lost (expired and taken by another holder) before the write. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

export class SessionStore {
  private readonly db: Kysely<Tables>;

  constructor(private readonly database: Database<Tables>) {
    this.db = database.kysely;
  }

  /** Creates the session on first use; true when it was created now, false when it existed. */
  async ensure(id: string, initial: SessionDefaults = NO_OWNER): Promise<boolean> {
    const now = Date.now();
    const result = await this.db
      .insertInto('agent_sessions')
      .values({ id, owner: initial.owner, tenant: initial.tenant, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Takes the lease if it is free or expired; undefined when someone else holds it. */
  async tryLease(id: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const now = Date.now();
    const row = await this.db
      .updateTable('agent_sessions')
      .set({ lease_owner: owner, lease_expires_at: now + ttlMs, lease_fence: sql`lease_fence + 1` })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lease_owner', 'is', null), eb('lease_expires_at', '<', now)]))
      .returning(['lease_fence', 'rev'])
      .executeTakeFirst();
    return row ? { sessionId: id, owner, fence: Number(row.lease_fence), rev: Number(row.rev) } : undefined;
  }

  /** Extends a lease still held; false when it was lost. */
  async renew(lease: Lease, ttlMs: number): Promise<boolean> {
    const result = await this.held(this.db.updateTable('agent_sessions'), lease)
      .set({ lease_expires_at: Date.now() + ttlMs })
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async release(lease: Lease): Promise<void> {
    await this.held(this.db.updateTable('agent_sessions'), lease)
      .set({ lease_owner: null, lease_expires_at: 0 })
      .execute();
  }

  async read(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db
      .selectFrom('agent_sessions')
      .select(['id', 'tenant', 'route', 'system_prompt', 'rev'])
      .select((eb) =>
        eb
          .selectFrom('agent_messages')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('agent_messages.session_id', '=', 'agent_sessions.id')
          .as('message_count'),
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      id: row.id,
      tenant: row.tenant,
      route: row.route ? (JSON.parse(row.route) as Route) : null,
      systemPrompt: row.system_prompt,
      rev: Number(row.rev),
      messageCount: Number(row.message_count ?? 0),
    };
  }

  async revision(id: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('agent_sessions')
      .select('rev')
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? Number(row.rev) : undefined;
  }

  /** The latest `limit` messages, oldest first; all of them without a limit. */
  async messages(id: string, limit?: number): Promise<StoredMessage[]> {
    let query = this.db
      .selectFrom('agent_messages')
      .select(['id', 'role', 'content', 'tools', 'ts', 'seq'])
      .where('session_id', '=', id)
      .orderBy('seq', 'desc');
    if (limit !== undefined) query = query.limit(limit);
    const rows = await query.execute();
    return rows.reverse().map((row) => ({
      id: row.id,
      role: row.role as MessageRole,
      content: row.content,
      ts: Number(row.ts),
      ...(row.tools ? { tools: JSON.parse(row.tools) as string[] } : {}),
    }));
  }

  /** Appends a finished turn's messages (and the route it used) under the lease; returns the new revision. */
  async commitTurn(lease: Lease, messages: StoredMessage[], route?: Route): Promise<number> {
    return this.underLease(lease, route ? { route: JSON.stringify(route) } : {}, async (trx) => {
      const last = await trx
        .selectFrom('agent_messages')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .where('session_id', '=', lease.sessionId)
        .executeTakeFirst();
      let seq = Number(last?.seq ?? 0);
      await trx
        .insertInto('agent_messages')
        .values(
          messages.map((m) => ({
            id: m.id,
            session_id: lease.sessionId,
            seq: ++seq,
            role: m.role,
            content: m.content,
            tools: m.tools?.length ? JSON.stringify(m.tools) : null,
            ts: m.ts,
          })),
        )
        .execute();
    });
  }

  /** Forgets the conversation; settings stay. */
  async clearHistory(lease: Lease): Promise<number> {
    return this.underLease(lease, {}, async (trx) => {
      await trx.deleteFrom('agent_messages').where('session_id', '=', lease.sessionId).execute();
    });
  }

  async configure(
    lease: Lease,
    changes: { route?: Route | undefined; systemPrompt?: string | undefined; tenant?: string | undefined },
  ): Promise<number> {
    return this.underLease(
      lease,
      {
        ...(changes.route ? { route: JSON.stringify(changes.route) } : {}),
        ...(changes.systemPrompt !== undefined ? { system_prompt: changes.systemPrompt } : {}),
        ...(changes.tenant !== undefined ? { tenant: changes.tenant } : {}),
      },
      async () => {},
    );
  }

  /** One transaction that bumps the revision only while the lease is still ours, then does `work`. */
  private underLease(
    lease: Lease,
    changes: Partial<Pick<Tables['agent_sessions'], 'route' | 'system_prompt' | 'tenant'>>,
    work: (trx: Kysely<Tables>) => Promise<void>,
  ): Promise<number> {
    return transaction(this.database, async (trx) => {
      const bumped = await this.held(trx.updateTable('agent_sessions'), lease)
        .set({ ...changes, rev: sql`rev + 1`, updated_at: Date.now() })
        .returning('rev')
        .executeTakeFirst();
      if (!bumped) throw new LeaseLostError('The session lease was lost before the write.');
      await work(trx);
      return Number(bumped.rev);
    });
  }

  /** Narrows an update to the session while `lease` still holds it. */
  private held(query: SessionUpdate, lease: Lease): SessionUpdate {
    return query
      .where('id', '=', lease.sessionId)
      .where('lease_fence', '=', lease.fence)
      .where('lease_owner', '=', lease.owner);
  }
}

export const newMessageId = () => newId('msg');
