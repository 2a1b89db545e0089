/**
 * @module http/rate-limit
 * Rate limits keyed by the caller's address (the limiters: `ratelimit.ts`).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { consumeOrReject, type RateLimiter } from '../ratelimit.js';

/** The caller's IP: the socket's address, or the first `X-Forwarded-For` hop when behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Middleware: one point per request, keyed by the caller's IP. */
export function limitByIp(limiter: RateLimiter, trustProxy: boolean): MiddlewareHandler {
  return async (c, next) => {
    await consumeOrReject(limiter, clientIp(c, trustProxy));
    return next();
  };
}
