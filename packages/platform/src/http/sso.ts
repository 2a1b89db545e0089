/**
 * @module auth/sso
 * How a service learns who is signed in: it asks the identity service
 * (`GET /api/session` with the caller's `xv_session` cookie) and keeps the answer
 * for a few seconds, so a burst of requests costs one call. Concurrent look-ups of
 * the same session share one request. With a revocation watch, a removal or a
 * disabled user empties the cache within a second (auth/revocations.ts).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { ORG_COOKIE, SESSION_COOKIE } from '../auth/cookies.js';
import type { IdentitySession, SessionMembership } from '../auth/principals.js';
import type { RevocationWatch } from '../auth/revocations.js';
import { TtlCache } from '../auth/ttl-cache.js';
import { sha256Hex } from '../crypto.js';
import { platformErrors } from '../errors.js';

export interface SsoClientOptions {
  identityUrl: string;
  /** How long an answer is reused; keep it to a few seconds so a logout takes effect quickly. */
  cacheTtlMs?: number;
  maxEntries?: number;
  timeoutMs?: number;
  /** The process's revocation watch: a removal or a disabled user empties the cache at once. */
  revocations?: RevocationWatch | undefined;
}

export class SsoClient {
  private readonly cache: TtlCache<IdentitySession | null>;
  private readonly timeoutMs: number;

  constructor(private readonly options: SsoClientOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 3000, {
      maxEntries: options.maxEntries ?? 10_000,
      revocations: options.revocations,
    });
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  get revocations(): RevocationWatch | undefined {
    return this.options.revocations;
  }

  /** The session of the request's `xv_session` cookie, or null when there is none or it is not valid. */
  async sessionOf(c: Context): Promise<IdentitySession | null> {
    const token = getCookie(c, SESSION_COOKIE);
    return token ? this.introspect(token) : null;
  }

  introspect(sessionToken: string): Promise<IdentitySession | null> {
    return this.cache.get(sha256Hex(sessionToken), () => this.fetchSession(sessionToken));
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
