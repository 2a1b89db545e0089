/**
 * @module sessions/store
 * The shared sign-in session. The browser holds an opaque random token
 * (`xv_session`); the database holds only its SHA-256, with the user, realm, `amr`,
 * `aal`, the time of authentication and two ends: an absolute one (`expires_at`)
 * and a sliding idle one (`last_seen_at` + idle timeout).
 *
 * `GET /api/session` is the platform's hottest call, so answers are kept in memory
 * for a moment (`XV_IDENTITY_SESSION_CACHE_MS`, logout and membership changes drop
 * them) and `last_seen_at` is written only when it moved by more than a minute.
 * A cached answer also holds only while the revocation epoch is the one it was read
 * under, so a removal or a disabled user seen by another identity instance (or an
 * operator command) ends it here within a second. A disabled user has no session.
 */
import type { AssuranceLevel, IdentitySession } from '@xv/platform';
import { compileQuery, hashToken, newId, newSecretToken, type Param } from '@xv/platform';
import { membershipsOf } from '../accounts/repository.js';
import type { IdentityDb } from '../db.js';
import { higherLevel, mergeAmr } from './assurance.js';

export interface SessionPolicy {
  idleMs: number;
  lifetimeMs: number;
  cacheMs: number;
}

export interface SessionRecord {
  id: string;
  tokenHash: string;
  realmId: string;
  userId: string;
  amr: string[];
  aal: AssuranceLevel;
  authTime: number;
  /** When the session last proved AAL2 (or more) and AAL3, or null: see `provedAt`. */
  aal2At: number | null;
  aal3At: number | null;
  expiresAt: number;
  /** The session object of `GET /api/session`. */
  view: IdentitySession;
}

export interface NewSession {
  realmId: string;
  userId: string;
  amr: string[];
  aal: AssuranceLevel;
  /**
   * When the session proved AAL2 and AAL3. By default: now, for the levels `aal` reaches (a sign-in
   * proves its level at once). A step-up passes the times it carries over from the session it replaces.
   */
  provedAt?: { aal2: number | null; aal3: number | null };
  /** The browser and client address that signed in, shown in the account console. */
  device?: { userAgent: string | null; address: string | null };
}

/** A live session as its owner sees it in the account console. */
export interface SessionListing {
  id: string;
  user_agent: string | null;
  address: string | null;
  created_at: number;
  last_seen_at: number;
}

/** Writing `last_seen_at` on every request would turn the hottest read into a write. */
const TOUCH_AFTER_MS = 60_000;
const MAX_CACHED = 20_000;

interface CacheEntry {
  until: number;
  record: SessionRecord;
  /** The revocation epoch known before the row was read. */
  epoch: number;
}

/** The process's view of the revocation epoch (revocations/epoch.ts). */
export interface EpochSource {
  current(): Promise<number>;
}

/** The proof times of a sign-in at `aal`: AAL3 proves AAL2 as well. */
export function provedNow(
  aal: AssuranceLevel,
  now = Date.now(),
): { aal2: number | null; aal3: number | null } {
  return { aal2: aal === 'AAL1' ? null : now, aal3: aal === 'AAL3' ? now : null };
}

export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();
  /** A session and its enabled user by token hash: compiled once, as every request that misses the cache runs it. */
  private readonly liveSession;

  constructor(
    private readonly db: IdentityDb,
    private readonly policy: SessionPolicy,
    private readonly epoch?: EpochSource,
  ) {
    this.liveSession = compileQuery(db, (param: Param<{ tokenHash: string }>) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id',
          'sessions.realm_id',
          'sessions.user_id',
          'sessions.amr',
          'sessions.aal',
          'sessions.auth_time',
          'sessions.aal2_at',
          'sessions.aal3_at',
          'sessions.last_seen_at',
          'sessions.expires_at',
          'users.email',
          'users.name',
          'users.avatar_color',
        ])
        .where('sessions.token_hash', '=', param('tokenHash'))
        .where('users.disabled_at', 'is', null),
    );
  }

  /** Starts a session and returns its token, the only copy of it. */
  async create(input: NewSession): Promise<{ token: string; id: string }> {
    const token = newSecretToken('xss');
    const now = Date.now();
    const id = newId('ses');
    const provedAt = input.provedAt ?? provedNow(input.aal, now);
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        id,
        realm_id: input.realmId,
        user_id: input.userId,
        amr: JSON.stringify(input.amr),
        aal: input.aal,
        auth_time: now,
        aal2_at: provedAt.aal2,
        aal3_at: provedAt.aal3,
        created_at: now,
        last_seen_at: now,
        expires_at: now + this.policy.lifetimeMs,
        user_agent: input.device?.userAgent?.slice(0, 300) ?? null,
        address: input.device?.address ?? null,
      })
      .execute();
    return { token, id };
  }

  /** The live session of `token`, or null (unknown, ended, idle too long). */
  async resolve(token: string | undefined): Promise<SessionRecord | null> {
    if (!token || token.length > 200) return null;
    const tokenHash = hashToken(token);
    const now = Date.now();
    const cacheOn = this.policy.cacheMs > 0;
    const epoch = cacheOn && this.epoch ? await this.epoch.current() : 0;
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > now && cached.epoch === epoch) return cached.record;
    if (cached) this.cache.delete(tokenHash);

    const row = await this.liveSession.takeFirst({ tokenHash });
    if (!row) return null;
    const idleEnd = row.last_seen_at + this.policy.idleMs;
    if (row.expires_at <= now || idleEnd <= now) {
      await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
      return null;
    }
    if (now - row.last_seen_at > TOUCH_AFTER_MS) {
      await this.db
        .updateTable('sessions')
        .set({ last_seen_at: now })
        .where('token_hash', '=', tokenHash)
        .execute();
    }
    const amr = JSON.parse(row.amr) as string[];
    const aal = row.aal as AssuranceLevel;
    const record: SessionRecord = {
      id: row.id,
      tokenHash,
      realmId: row.realm_id,
      userId: row.user_id,
      amr,
      aal,
      authTime: row.auth_time,
      aal2At: row.aal2_at,
      aal3At: row.aal3_at,
      expiresAt: row.expires_at,
      view: {
        authenticated: true,
        realmId: row.realm_id,
        user: { id: row.user_id, email: row.email, name: row.name, avatar_color: row.avatar_color },
        memberships: await membershipsOf(this.db, row.user_id),
        amr,
        aal,
      },
    };
    if (cacheOn) {
      if (this.cache.size >= MAX_CACHED) this.evict();
      this.cache.set(tokenHash, {
        until: Math.min(now + this.policy.cacheMs, row.expires_at),
        record,
        epoch,
      });
    }
    return record;
  }

  /** Ends the session of `token` (logout, or a new sign-in replacing it). */
  async revoke(token: string | undefined): Promise<void> {
    if (!token) return;
    const tokenHash = hashToken(token);
    this.cache.delete(tokenHash);
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends every session of a user (e.g. after a password change or 2FA reset). */
  async revokeAllOf(userId: string): Promise<void> {
    this.forgetUser(userId);
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  /** The user's live sessions, the most recently used first. */
  async listOf(userId: string, now = Date.now()): Promise<SessionListing[]> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['id', 'user_agent', 'address', 'created_at', 'last_seen_at'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('last_seen_at', '>', now - this.policy.idleMs)
      .orderBy('last_seen_at', 'desc')
      .execute();
    return rows.map((row) => ({
      ...row,
      created_at: Number(row.created_at),
      last_seen_at: Number(row.last_seen_at),
    }));
  }

  /** Ends one session of the user by its id; false when the user has no session with that id. */
  async revokeById(userId: string, sessionId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    this.forgetUser(userId);
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends every session of the user but `keepId`; answers how many ended. */
  async revokeOthers(userId: string, keepId: string): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keepId)
      .executeTakeFirst();
    this.forgetUser(userId);
    return Number(result.numDeletedRows);
  }

  /** Drops cached answers of a user whose memberships or profile changed. */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.cache) if (entry.record.userId === userId) this.cache.delete(key);
  }

  /** Deletes sessions past their absolute end; run now and then. */
  async sweepExpired(now = Date.now()): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    await this.db
      .deleteFrom('sessions')
      .where('last_seen_at', '<=', now - this.policy.idleMs)
      .execute();
  }

  /**
   * Makes room by dropping the oldest tenth of the cache (a Map iterates in insertion
   * order, and every entry lives at most `cacheMs`, so the oldest are the nearest to
   * their end): one pass per MAX_CACHED / 10 misses, not a scan of the map per miss.
   */
  private evict() {
    let drop = Math.ceil(MAX_CACHED / 10);
    for (const key of this.cache.keys()) {
      if (drop-- <= 0) break;
      this.cache.delete(key);
    }
  }
}

/**
 * The session a step-up makes of `session` once the person proved a factor they
 * already had: the methods merged, the higher level kept, the level just proved
 * fresh and a level proved earlier keeping the time it was proved.
 */
export function steppedUp(
  session: SessionRecord,
  proof: { amr: string[]; aal: AssuranceLevel },
  device?: NewSession['device'],
): NewSession {
  const now = provedNow(proof.aal);
  return {
    realmId: session.realmId,
    userId: session.userId,
    amr: mergeAmr(session.amr, proof.amr),
    aal: higherLevel(session.aal, proof.aal),
    provedAt: { aal2: now.aal2 ?? session.aal2At, aal3: now.aal3 ?? session.aal3At },
    ...(device ? { device } : {}),
  };
}
