/**
 * @module ratelimit
 * Limits on guessable secrets and public endpoints. In memory for a single
 * process on SQLite; in a PostgreSQL table when the service runs on PostgreSQL, so
 * every instance counts against the same budget. On PostgreSQL the points spent in
 * one turn of the event loop go to the table together (`GroupCommittedPostgresLimiter`).
 */

import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AnyDatabase } from './db/database.js';
import { GroupCommit } from './db/group-commit.js';
import { AppError, platformErrors } from './errors.js';

export type RateLimiter = RateLimiterAbstract;

export interface RateLimitOptions {
  /** Distinguishes limiters that share a store, e.g. `login-ip`. */
  keyPrefix: string;
  points: number;
  durationSeconds: number;
  /** Once the points are spent, refuse for this long (a lockout). */
  blockSeconds?: number;
}

export async function createRateLimiter(
  database: AnyDatabase,
  options: RateLimitOptions,
): Promise<RateLimiter> {
  const common = {
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    blockDuration: options.blockSeconds ?? 0,
  };
  if (database.dialect !== 'postgres' || !database.pool) return new RateLimiterMemory(common);
  const { pool, schema } = database;
  return new Promise((resolve, reject) => {
    const limiter: RateLimiterPostgres = new GroupCommittedPostgresLimiter(
      { ...common, storeClient: pool, storeType: 'pool', tableName: 'rate_limits', schemaName: schema },
      (error?: unknown) => (error ? reject(error) : resolve(limiter)),
    );
  });
}

/** Spends one point of `key`; over the limit it throws 429 `rate_limited` with `Retry-After`. */
export async function consumeOrReject(limiter: RateLimiter, key: string, points = 1): Promise<void> {
  try {
    await limiter.consume(key, points);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw tooManyRequests(rejection);
    throw rejection;
  }
}

/** True when the key has no points left (without spending one). */
export async function isLimited(limiter: RateLimiter, key: string): Promise<RateLimiterRes | null> {
  const state = await limiter.get(key);
  return state && state.remainingPoints <= 0 && state.msBeforeNext > 0 ? state : null;
}

export function tooManyRequests(state: RateLimiterRes): AppError {
  const retryAfter = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  const base = platformErrors.rate_limited();
  return new AppError(
    base.status,
    base.code,
    base.message,
    { retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

/** One consume (or penalty, or reward) of `points` on `key`, in a window of `msDuration`. */
interface Upsert {
  key: string;
  points: number;
  msDuration: number;
}

/** The key's count and window end after the upsert, as rate-limiter-flexible reads them. */
interface Counted {
  points: number;
  expire: string | number | null;
}

/** The parts of rate-limiter-flexible's PostgreSQL store this one builds on (its store contract). */
interface PostgresStore {
  _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire?: boolean,
  ): Promise<{ rows: Counted[] }>;
  _query(query: {
    name?: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: (Counted & { key: string })[] }>;
  _getTableIdentifier(): string;
}

const store = RateLimiterPostgres.prototype as unknown as PostgresStore;

/**
 * rate-limiter-flexible's PostgreSQL limiter, whose points spent in the same turn
 * of the event loop are counted by one statement: `_upsert`, the method each of
 * the library's stores implements, goes through a group commit instead of one
 * round trip and one commit per request (a public endpoint on PostgreSQL paid one
 * of each for every request it answered, before its own work began).
 *
 * The count is what the requests would have made one after another: the upserts of
 * one key are summed into one row of a multi-row `INSERT … ON CONFLICT DO UPDATE`
 * (with the library's own rule: a window that has ended starts again from the new
 * points), and each request is told the count as it stood after its own points,
 * in the order they were asked for. A batch whose upserts of one key differ in
 * window length is written upsert by upsert. Blocks and sets (`forceExpire`) go
 * to the library as they are.
 */
export class GroupCommittedPostgresLimiter extends RateLimiterPostgres {
  private readonly upserts = new GroupCommit<Upsert, Counted>((batch) => this.countAll(batch), {
    maxBatch: 500,
    maxInFlight: 4,
  });

  _upsert(key: string, points: number, msDuration: number, forceExpire = false) {
    if (forceExpire) return store._upsert.call(this, key, points, msDuration, forceExpire);
    return this.upserts.write({ key, points, msDuration }).then((counted) => ({ rows: [counted] }));
  }

  private async countAll(batch: readonly Upsert[]): Promise<Counted[]> {
    const byKey = new Map<string, { points: number; msDuration: number }>();
    for (const { key, points, msDuration } of batch) {
      const summed = byKey.get(key);
      if (summed && summed.msDuration !== msDuration) throw new Error('one key, two window lengths');
      byKey.set(key, { points: (summed?.points ?? 0) + points, msDuration });
    }
    const now = Date.now();
    const values: unknown[] = [now];
    const rows: string[] = [];
    for (const [key, { points, msDuration }] of byKey) {
      const at = values.length;
      values.push(key, points, msDuration > 0 ? now + msDuration : null);
      rows.push(`($${at + 1}::varchar(255), $${at + 2}::integer, $${at + 3}::bigint)`);
    }
    const table = store._getTableIdentifier.call(this);
    const { rows: counted } = await store._query.call(this, {
      name: `rlflx-upsert-many-${rows.length}`,
      text: `INSERT INTO ${table} AS t (key, points, expire)
        SELECT v.key, v.points, v.expire FROM (VALUES ${rows.join(', ')}) AS v (key, points, expire)
        ON CONFLICT (key) DO UPDATE SET
          points = CASE WHEN t.expire <= $1 THEN excluded.points ELSE t.points + excluded.points END,
          expire = CASE WHEN t.expire <= $1 THEN excluded.expire ELSE t.expire END
        RETURNING key, points, expire`,
      values,
    });
    // Each request sees the count after its own points: the key's total, less what came after it.
    const after = new Map(
      counted.map((row) => [row.key, { points: Number(row.points), expire: row.expire }]),
    );
    const later = new Map([...byKey].map(([key, summed]) => [key, summed.points]));
    return batch.map(({ key, points }) => {
      const row = after.get(key)!;
      const pointsLater = later.get(key)! - points;
      later.set(key, pointsLater);
      return { points: row.points - pointsLater, expire: row.expire };
    });
  }
}
