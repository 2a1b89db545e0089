/**
 * @module auth/sso
 * How a service learns who is signed in: it asks the identity service
 * (`GET /api/session` with the caller's `xv_session` cookie) and keeps the answer
 * for a few seconds, so a burst of requests costs one call. Concurrent look-ups of
 * the same session share one request.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { sha256Hex } from '../crypto.js';
import { platformErrors } from '../http/errors.js';
import { ORG_COOKIE, SESSION_COOKIE } from './cookies.js';

export type AssuranceLevel = 'AAL1' | 'AAL2' | 'AAL3';

export interface SessionMembership {
  org_id: string;
  org_name: string;
  role: string;
  permissions: string[];
}

export interface IdentitySession {
  authenticated: true;
  realmId: string;
  user: { id: string; email: string; name: string; avatar_color: string };
  memberships: SessionMembership[];
  amr: string[];
  aal: AssuranceLevel;
}

export interface SsoClientOptions {
  identityUrl: string;
  /** How long an answer is reused; keep it to a few seconds so a logout takes effect quickly. */
  cacheTtlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
}

interface CacheEntry {
  expires: number;
  session: Promise<IdentitySession | null>;
}

export class SsoClient {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly ttl: number;
  private readonly maxEntries: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: SsoClientOptions) {
    this.ttl = options.cacheTtlMs ?? 3000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  /** The session of the request's `xv_session` cookie, or null when there is none or it is not valid. */
  async sessionOf(c: Context): Promise<IdentitySession | null> {
    const token = getCookie(c, SESSION_COOKIE);
    return token ? this.introspect(token) : null;
  }

  async introspect(sessionToken: string): Promise<IdentitySession | null> {
    const key = sha256Hex(sessionToken);
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.session;
    if (this.cache.size >= this.maxEntries) this.evictExpired(now);
    const session = this.fetchSession(sessionToken);
    this.cache.set(key, { expires: now + this.ttl, session });
    session.catch(() => this.cache.delete(key)); // failures are not remembered
    return session;
  }

  /** Forgets a cached session, e.g. after this service saw it log out. */
  forget(sessionToken: string) {
    this.cache.delete(sha256Hex(sessionToken));
  }

  private async fetchSession(sessionToken: string): Promise<IdentitySession | null> {
    let response: Response;
    try {
      response = await fetch(`${this.options.identityUrl}/api/session`, {
        headers: { cookie: `${SESSION_COOKIE}=${sessionToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw platformErrors.unavailable('The identity service cannot be reached.');
    }
    if (response.status === 401) return null;
    if (!response.ok)
      throw platformErrors.unavailable('The identity service did not answer the session check.');
    const body = (await response.json()) as IdentitySession | { authenticated: false };
    return body.authenticated ? body : null;
  }

  private evictExpired(now: number) {
    for (const [key, entry] of this.cache) if (entry.expires <= now) this.cache.delete(key);
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const key of this.cache.keys()) {
      if (this.cache.size < this.maxEntries) break;
      this.cache.delete(key);
    }
  }
}

/** The organization the user acts for: the `xv_org` cookie when they belong to it, else their first membership. */
export function activeMembership(session: IdentitySession, c: Context): SessionMembership | undefined {
  const chosen = getCookie(c, ORG_COOKIE);
  return session.memberships.find((m) => m.org_id === chosen) ?? session.memberships[0];
}

export type SessionVariables = { session: IdentitySession };

/** Lets only signed-in callers through and puts their session in `c.var.session`. */
export function requireSession(sso: SsoClient): MiddlewareHandler<{ Variables: SessionVariables }> {
  return async (c, next) => {
    const session = await sso.sessionOf(c);
    if (!session) throw platformErrors.unauthenticated('Sign in through the identity service first.');
    c.set('session', session);
    return next();
  };
}
