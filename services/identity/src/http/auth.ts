/**
 * @module http/auth
 * The sign-in form posts of the spec, each answering 303:
 * | POST /api/auth/register | email, password, name, orgName (optional through an invitation), redirect? | `/account` or the redirect, or `/register?error=invalid|exists` |
 * | POST /api/auth/login    | email, password, realm          | `/account` or the redirect, `/login/2fa`, `/login?error=1`, or `?error=locked` with `Retry-After` |
 * | POST /api/auth/2fa      | code (xv_mfa cookie)            | `/account` or the redirect, or `/login/2fa?error=1` |
 * | POST /api/auth/logout   | (xv_session cookie)             | `/login` |
 * Sign-in and registration refuse cross-site form posts (login CSRF); failed sign-ins make their source wait
 * (sign-in/throttle.ts). A failed post keeps what was typed (never the password) for the form it goes back to.
 */

import { consumeOrReject, MFA_COOKIE, SESSION_COOKIE } from '@xv/platform';
import { type App, clientIp, sameSiteOnly, z } from '@xv/platform/http';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';
import {
  DEFAULT_REALM,
  findUserByEmail,
  findUserById,
  normalizeEmail,
  REALM_ID,
  type User,
} from '../accounts/repository.js';
import { invitationOfPath } from '../invitations/invitations.js';
import { createMfaChallenge, deleteMfaChallenge, findMfaChallenge } from '../mfa/challenges.js';
import { acceptSecondFactorCode } from '../mfa/enrolment.js';
import { markEmailVerified } from '../self-service/profile.js';
import { recordSecurityEvent } from '../self-service/security-log.js';
import { isLevel } from '../sessions/assurance.js';
import { checkPassword, registerInvited, registerWithPassword } from '../sign-in/password.js';
import type { IdentityContext } from './context.js';
import { keepTyped, readForm, withQuery } from './forms.js';
import { safeRedirect } from './redirects.js';
import {
  clearMfaCookie,
  clearSessionCookies,
  finishSignIn,
  knownDevice,
  requestOrigin,
  setMfaCookie,
} from './sign-in.js';

const registration = z.object({
  email: z.email().max(254),
  password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
  name: z.string().trim().min(1).max(200),
  /** Left out by a person signing up through an invitation: they join the inviting organization instead. */
  orgName: z.string().trim().max(200).optional(),
});

export function registerAuthRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;
  const trustProxy = identity.service.settings.trustProxy;
  const redirectOf = (value: unknown) => safeRedirect(value, identity.redirectPolicy);
  // Login CSRF: a foreign page must not sign the visitor in to an account of its choosing.
  const fromXvOnly = sameSiteOnly(identity.redirectPolicy);
  app.use('/api/auth/login', fromXvOnly);
  app.use('/api/auth/register', fromXvOnly);

  app.post('/api/auth/register', async (c) => {
    const form = await readForm(c);
    const parsed = registration.safeParse(form);
    const redirect = redirectOf(form.redirect);
    const back = (error: string) => {
      keepTyped(c, 'register', '/register', { email: form.email, name: form.name, orgName: form.orgName });
      return c.redirect(withQuery('/register', { error, redirect }), 303);
    };
    if (!parsed.success) return back('invalid');
    try {
      await consumeOrReject(identity.limiters.registration, clientIp(c, trustProxy));
    } catch {
      return back('rate_limited');
    }
    const { orgName, ...person } = parsed.data;
    let user: User | null;
    if (orgName) {
      user = await registerWithPassword(identity.database, { ...person, orgName });
    } else {
      // Without an organization of their own only through an invitation sent to this very address.
      const invitation = await invitationOfPath(db, redirect);
      if (!invitation || invitation.email !== normalizeEmail(person.email)) return back('invalid');
      user = await registerInvited(identity.database, person);
      // The invitation's token, sent to this address, proves the mailbox is theirs.
      if (user) await markEmailVerified(db, user.id);
    }
    if (!user) return back('exists');
    return finishSignIn(identity, c, {
      realmId: DEFAULT_REALM,
      userId: user.id,
      amr: ['pwd'],
      aal: 'AAL1',
      redirect,
    });
  });

  app.post('/api/auth/login', async (c) => {
    const form = await readForm(c);
    const redirect = redirectOf(form.redirect);
    const wantedAal = isLevel(form.aal) ? form.aal : null;
    const realmId = form.realm?.trim() || DEFAULT_REALM;
    const back = (error: string) => {
      keepTyped(c, 'login', '/login', { email: form.email?.trim() });
      return c.redirect(
        withQuery('/login', {
          error,
          redirect,
          aal: wantedAal,
          realm: realmId === DEFAULT_REALM ? null : realmId,
        }),
        303,
      );
    };
    const email = form.email?.trim() ?? '';
    const password = form.password ?? '';
    if (
      !email ||
      !password ||
      password.length > PASSWORD_MAX_LENGTH ||
      email.length > 254 ||
      !REALM_ID.test(realmId)
    )
      return back('1');
    const account = await findUserByEmail(db, realmId, email);
    const attempt = {
      account: `${realmId}:${normalizeEmail(email)}`,
      address: clientIp(c, trustProxy),
      device: knownDevice(identity, c, account?.id),
      realmId,
      userId: account?.id ?? null,
    };
    const wait = await identity.signIn.waitFor(attempt);
    if (wait !== null) {
      c.header('Retry-After', String(wait));
      return back('locked');
    }
    // A disabled account gets the answer of a wrong password: the form does not reveal its state.
    const user = await checkPassword(account, password);
    if (!user) {
      await identity.signIn.failed(attempt);
      if (account)
        await recordSecurityEvent(db, account.id, 'sign_in_failed', requestOrigin(identity, c), 'password');
      return back('1');
    }
    await identity.signIn.succeeded(attempt);
    if (user.totp_secret) {
      const token = await createMfaChallenge(db, { realmId, userId: user.id, redirect, wantedAal });
      setMfaCookie(identity, c, token);
      return c.redirect('/login/2fa', 303);
    }
    return finishSignIn(identity, c, {
      realmId,
      userId: user.id,
      amr: ['pwd'],
      aal: 'AAL1',
      redirect,
      wantedAal,
    });
  });

  app.post('/api/auth/2fa', async (c) => {
    const challenge = await findMfaChallenge(db, getCookie(c, MFA_COOKIE));
    if (!challenge) {
      clearMfaCookie(identity, c);
      return c.redirect('/login?error=expired', 303);
    }
    const form = await readForm(c);
    const code = form.code?.trim() ?? '';
    const attempt = {
      account: `mfa:${challenge.user_id}`,
      address: clientIp(c, trustProxy),
      device: knownDevice(identity, c, challenge.user_id),
      realmId: challenge.realm_id,
      userId: challenge.user_id,
    };
    const wait = await identity.signIn.waitFor(attempt);
    if (wait !== null) {
      c.header('Retry-After', String(wait));
      return c.redirect('/login/2fa?error=locked', 303);
    }
    const user = await findUserById(db, challenge.user_id);
    if (!user?.totp_secret || user.disabled_at !== null) return c.redirect('/login?error=expired', 303);
    if (!(await acceptSecondFactorCode(db, identity.kek, user.id, user.totp_secret, code))) {
      await identity.signIn.failed(attempt);
      await recordSecurityEvent(db, user.id, 'second_factor_failed', requestOrigin(identity, c), '2FA code');
      return c.redirect('/login/2fa?error=1', 303);
    }
    await identity.signIn.succeeded(attempt);
    await deleteMfaChallenge(db, challenge.token_hash);
    clearMfaCookie(identity, c);
    return finishSignIn(identity, c, {
      realmId: challenge.realm_id,
      userId: user.id,
      amr: ['pwd', 'otp'],
      aal: 'AAL2',
      redirect: challenge.redirect,
      wantedAal: challenge.wanted_aal,
    });
  });

  app.post('/api/auth/logout', async (c: Context) => {
    await identity.sessions.revoke(getCookie(c, SESSION_COOKIE));
    clearSessionCookies(identity, c);
    return c.redirect('/login', 303);
  });
}
