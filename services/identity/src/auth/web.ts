/**
 * @module auth/web
 * Browser-facing pieces shared by the sign-in routes: reading a form, the session
 * and 2FA cookies, and finishing a sign-in (a fresh session token, the old one
 * ended, and a 303 to where the person was going).
 */
import type { AssuranceLevel } from '@xv/platform';
import { MFA_COOKIE, ORG_COOKIE, SESSION_COOKIE, sharedCookieOptions } from '@xv/platform';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { IdentityContext } from '../context.js';
import { MFA_CHALLENGE_SECONDS } from '../mfa/challenges.js';
import { meetsLevel } from '../sessions/assurance.js';

/** The string fields of a form post; anything else (files, a non-form body) is ignored. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    return {};
  }
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') form[name] = value;
  return form;
}

export function setSessionCookie(identity: IdentityContext, c: Context, token: string) {
  setCookie(
    c,
    SESSION_COOKIE,
    token,
    sharedCookieOptions(identity.sharedDomain, identity.config.sessionLifetimeSeconds),
  );
}

export function clearSessionCookies(identity: IdentityContext, c: Context) {
  const options = sharedCookieOptions(identity.sharedDomain);
  deleteCookie(c, SESSION_COOKIE, options);
  deleteCookie(c, ORG_COOKIE, options);
}

export function setMfaCookie(identity: IdentityContext, c: Context, token: string) {
  setCookie(c, MFA_COOKIE, token, sharedCookieOptions(identity.sharedDomain, MFA_CHALLENGE_SECONDS));
}

export function clearMfaCookie(identity: IdentityContext, c: Context) {
  deleteCookie(c, MFA_COOKIE, sharedCookieOptions(identity.sharedDomain));
}

/** `path?a=1&b=2`, leaving out empty values. */
export function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export interface SignIn {
  realmId: string;
  userId: string;
  amr: string[];
  aal: AssuranceLevel;
  /** A validated redirect target. */
  redirect: string | null;
  /** The level the page that sent the person here asked for. */
  wantedAal?: string | null;
}

/**
 * Starts a new session (never reusing a token the browser brought: no session
 * fixation), ends the one it replaces, and sends the browser on: to the target, or
 * to the account page to enrol a stronger method when the level asked for is not reached.
 */
export async function finishSignIn(identity: IdentityContext, c: Context, signIn: SignIn) {
  await identity.sessions.revoke(getCookie(c, SESSION_COOKIE));
  const { token } = await identity.sessions.create(signIn);
  setSessionCookie(identity, c, token);
  if (signIn.wantedAal && !meetsLevel(signIn.aal, signIn.wantedAal)) {
    return c.redirect(withQuery('/account', { stepup: signIn.wantedAal, redirect: signIn.redirect }), 303);
  }
  return c.redirect(signIn.redirect ?? '/account', 303);
}
