/**
 * @module http/principal
 * The caller of a request, read from its cookies: the shared `xv_session`
 * (checked with identity) and the agent's own anonymous owner cookie
 * `xv_agent_owner` (host-only, HttpOnly). The rules are in `access/principal.ts`.
 */
import { SESSION_COOKIE } from '@xv/platform';
import { activeMembership, isLocalhostDomain, type SsoClient } from '@xv/platform/http';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { newOwnerSecret, type Principal, principalFrom } from '../access/principal.js';

export const OWNER_COOKIE = 'xv_agent_owner';
const OWNER_COOKIE_MAX_AGE = 365 * 24 * 3600;

export async function principalOf(c: Context, sso: SsoClient): Promise<Principal> {
  const token = getCookie(c, SESSION_COOKIE);
  const session = token ? await sso.sessionOf(c) : null;
  return principalFrom({
    person: session && token ? { session, token, active: activeMembership(session, c) } : undefined,
    ownerSecret: getCookie(c, OWNER_COOKIE),
  });
}

/** Gives the browser its anonymous owner cookie (host-only: only the agent reads it). */
export function issueOwnerCookie(c: Context, sharedDomain: string): void {
  setCookie(c, OWNER_COOKIE, newOwnerSecret(), {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: !isLocalhostDomain(sharedDomain),
    maxAge: OWNER_COOKIE_MAX_AGE,
  });
}
