/**
 * @module principal
 * Who is asking, and so whose sessions a request reaches. A session is found by
 * its owner and the id the caller chose:
 *
 * - a signed-in person (a valid shared `xv_session`, checked with identity):
 *   owner `user:<usr_id>`;
 * - a browser that opened the chat page without signing in carries the anonymous
 *   owner cookie `xv_agent_owner` (256 random bits, HttpOnly): owner
 *   `anon:<sha256 of the cookie>`, so the database never holds the secret itself;
 * - a caller with neither (a script): no owner; the id alone names the session,
 *   and is then the caller's secret.
 *
 * The same id under two owners is two unrelated sessions.
 */
import { randomBytes } from 'node:crypto';
import { type IdentitySession, SESSION_COOKIE, type SessionMembership, sha256Hex } from '@xv/platform';
import { activeMembership, isLocalhostDomain, type SsoClient } from '@xv/platform/http';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const OWNER_COOKIE = 'xv_agent_owner';
/** 32 bytes in base64url. */
const OWNER_SECRET = /^[A-Za-z0-9_-]{43}$/;
const OWNER_COOKIE_MAX_AGE = 365 * 24 * 3600;

export type Principal =
  | {
      kind: 'person';
      owner: string;
      person: IdentitySession;
      /** The person's `xv_session`, forwarded to the knowledge base to search with their rights. */
      sessionToken: string;
      /** The organization they act for (`xv_org`, else their first membership). */
      active: SessionMembership | undefined;
    }
  | { kind: 'visitor'; owner: string }
  | { kind: 'bare'; owner: '' };

export async function principalOf(c: Context, sso: SsoClient): Promise<Principal> {
  const sessionToken = getCookie(c, SESSION_COOKIE);
  const person = sessionToken ? await sso.sessionOf(c) : null;
  if (person && sessionToken)
    return {
      kind: 'person',
      owner: `user:${person.user.id}`,
      person,
      sessionToken,
      active: activeMembership(person, c),
    };
  const secret = getCookie(c, OWNER_COOKIE);
  if (secret && OWNER_SECRET.test(secret)) return { kind: 'visitor', owner: `anon:${sha256Hex(secret)}` };
  return { kind: 'bare', owner: '' };
}

/**
 * The row key of a session: `<owner>/<id>`, or the bare id without an owner. An id
 * never contains `/`, so a bare id can never reach an owned session.
 */
export function sessionKey(principal: Principal, id: string): string {
  return principal.owner ? `${principal.owner}/${id}` : id;
}

/** Gives the browser its anonymous owner cookie (host-only: only the agent reads it). */
export function issueOwnerCookie(c: Context, sharedDomain: string): void {
  setCookie(c, OWNER_COOKIE, randomBytes(32).toString('base64url'), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: !isLocalhostDomain(sharedDomain),
    maxAge: OWNER_COOKIE_MAX_AGE,
  });
}
