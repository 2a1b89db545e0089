/**
 * @module routes/rate-limits
 * Per-client budgets on the trust service's public writes: seals, attestations and
 * anchor requests, each counted per minute. The client is the authenticated caller
 * (the person's user id, or the service client's id), else the address
 * (`X-Forwarded-For` only behind a trusted proxy, `XV_TRUST_PROXY`). The platform's
 * limiter keeps the counts in PostgreSQL when the service runs on it, so every
 * instance spends the same budget; past it the answer is 429 `rate_limited` with
 * `Retry-After`.
 */
import {
  type Actor,
  type AnyDatabase,
  consumeOrReject,
  createRateLimiter,
  type RateLimiter,
} from '@xv/platform';
import { clientIp, type SessionSource } from '@xv/platform/http';
import type { Context, MiddlewareHandler } from 'hono';

export interface TrustRateLimits {
  seal: RateLimiter;
  attestation: RateLimiter;
  anchor: RateLimiter;
}

export async function createTrustRateLimits(
  database: AnyDatabase,
  perMinute: { seal: number; attestation: number; anchor: number },
): Promise<TrustRateLimits> {
  const limiter = (keyPrefix: string, points: number) =>
    createRateLimiter(database, { keyPrefix, points, durationSeconds: 60 });
  return {
    seal: await limiter('trust-seal', perMinute.seal),
    attestation: await limiter('trust-attest', perMinute.attestation),
    anchor: await limiter('trust-anchor', perMinute.anchor),
  };
}

/** The budget a caller spends: its own when authenticated, its address's otherwise. */
export function clientKey(c: Context, actor: Actor | undefined, trustProxy: boolean): string {
  if (actor?.kind === 'user') return `user:${actor.session.user.id}`;
  if (actor?.kind === 'service') return `service:${actor.client.id}`;
  return `ip:${clientIp(c, trustProxy)}`;
}

/** Spends one point of the caller's budget on `limiter`; 429 when it is spent. */
export function spend(limiter: RateLimiter, c: Context, actor: Actor | undefined, trustProxy: boolean) {
  return consumeOrReject(limiter, clientKey(c, actor, trustProxy));
}

/**
 * Middleware for an endpoint that needs no authentication: a signed-in person spends
 * their own budget, anyone else their address's. A bearer token is not checked here,
 * so it earns no budget of its own.
 */
export function limitPosts(
  limiter: RateLimiter,
  sessions: SessionSource,
  trustProxy: boolean,
): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method !== 'POST') return next();
    // The endpoint works without identity: when it cannot be asked, the address pays.
    const session = await sessions.sessionOf(c).catch(() => null);
    const key = session ? `user:${session.user.id}` : clientKey(c, undefined, trustProxy);
    await consumeOrReject(limiter, key);
    return next();
  };
}
