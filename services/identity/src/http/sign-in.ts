/**
 * @module http/sign-in
 * The browser side of signing in: the session, 2FA and known-device cookies, and
 * finishing a sign-in (a fresh session token, the old one ended, and a 303 to
 * where the person was going).
 */
import type { AssuranceLevel } from '@xv/platform';
import { MFA_COOKIE, ORG_COOKIE, SESSION_COOKIE } from '@xv/platform';
import { clientIp, sharedCookieOptions } from '@xv/platform/http';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { MFA_CHALLENGE_SECONDS } from '../mfa/challenges.js';
import { type PasskeySignIn, passkeyAmr, passkeyAssurance } from '../passkeys/webauthn.js';
import { type Origin, recordSecurityEvent } from '../self-service/security-log.js';
import { higherLevel, meetsLevel } from '../sessions/assurance.js';
import { type SessionRecord, steppedUp } from '../sessions/store.js';
import { DEVICE_COOKIE, DEVICE_SECONDS, deviceOf, sealDevice } from '../sign-in/devices.js';
import type { IdentityContext } from './context.js';
import { withQuery } from './forms.js';

/** The request's client address and browser, for the session list and the security log. */
export function requestOrigin(identity: IdentityContext, c: Context): Origin {
  return {
    address: clientIp(c, identity.service.settings.trustProxy) || null,
    userAgent: c.req.header('user-agent')?.slice(0, 300) ?? null,
  };
}

/** A new session for a sign-in, remembering where it came from, and the sign-in in the security log. */
async function startSession(
  identity: IdentityContext,
  c: Context,
  signIn: { realmId: string; userId: string; amr: string[]; aal: AssuranceLevel },
) {
  const origin = requestOrigin(identity, c);
  const created = await identity.sessions.create({ ...signIn, device: origin });
  await recordSecurityEvent(identity.db, signIn.userId, 'sign_in', origin, signIn.amr.join(' + '));
  return created;
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

/** The device id of the request's `xv_device` cookie when it was issued to `userId`, else null. */
export function knownDevice(identity: IdentityContext, c: Context, userId: string | null | undefined) {
  return deviceOf(identity.kek, getCookie(c, DEVICE_COOKIE), userId);
}

/** Marks this browser as a known device of `userId`, keeping its device id when it already was one. */
function rememberDevice(identity: IdentityContext, c: Context, userId: string) {
  const sealed = sealDevice(identity.kek, userId, knownDevice(identity, c, userId));
  setCookie(c, DEVICE_COOKIE, sealed, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(identity.identityUrl).protocol === 'https:',
    maxAge: DEVICE_SECONDS,
  });
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
  const { token } = await startSession(identity, c, signIn);
  setSessionCookie(identity, c, token);
  rememberDevice(identity, c, signIn.userId);
  if (signIn.wantedAal && !meetsLevel(signIn.aal, signIn.wantedAal)) {
    return c.redirect(withQuery('/account', { stepup: signIn.wantedAal, redirect: signIn.redirect }), 303);
  }
  return c.redirect(signIn.redirect ?? '/account', 303);
}

/**
 * Raises the assurance of the current session after the person proved a factor they
 * already had (a passkey step-up): a new token for the stepped-up session. Enrolling a
 * factor never comes here: the next step-up must use it.
 */
async function elevateSession(
  identity: IdentityContext,
  c: Context,
  session: SessionRecord,
  proof: { amr: string[]; aal: AssuranceLevel },
) {
  const { token } = await identity.sessions.create(steppedUp(session, proof, requestOrigin(identity, c)));
  await identity.sessions.revoke(getCookie(c, SESSION_COOKIE));
  setSessionCookie(identity, c, token);
  return higherLevel(session.aal, proof.aal);
}

/**
 * A passkey sign-in. For the same user's current session it is a step-up (methods
 * merged, the higher level kept); otherwise a new session. Either way a new token.
 */
export async function finishPasskeySignIn(identity: IdentityContext, c: Context, passkey: PasskeySignIn) {
  const proof = { amr: passkeyAmr(passkey), aal: passkeyAssurance(passkey) };
  const current = await identity.currentSession(c);
  if (current && current.userId === passkey.userId) return elevateSession(identity, c, current, proof);
  await identity.sessions.revoke(getCookie(c, SESSION_COOKIE));
  const { token } = await startSession(identity, c, {
    realmId: passkey.realmId,
    userId: passkey.userId,
    ...proof,
  });
  setSessionCookie(identity, c, token);
  rememberDevice(identity, c, passkey.userId);
  return proof.aal;
}
