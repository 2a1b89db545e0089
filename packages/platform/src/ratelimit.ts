/**
 * @module ratelimit
 * Limits on guessable secrets and public endpoints. In memory for a single
 * process on SQLite; in a PostgreSQL table when the service runs on PostgreSQL, so
 * every instance counts against the same budget.
 */

import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AnyDatabase } from './db/database.js';
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
    const limiter: RateLimiterPostgres = new RateLimiterPostgres(
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
