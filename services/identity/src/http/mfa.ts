/**
 * @module http/mfa
 * 2FA enrolment (contract.md), for a signed-in user:
 * | POST /api/auth/2fa/setup          | `{password?}` | `{secret, otpauthUrl, qrSvg}` (a pending secret) |
 * | POST /api/auth/2fa/enable         | `{code}`      | `{ok, recoveryCodes}` (10 codes, shown once); the session's level does not change |
 * | POST /api/auth/2fa/disable        | `{code}`      | `{ok}`; a current TOTP code or a recovery code is needed |
 * | POST /api/auth/2fa/recovery-codes |               | `{ok, recoveryCodes}`: ten new codes, the old ones stop working |
 * | GET  /api/auth/2fa                |               | `{enabled, recoveryCodesLeft}` |
 * The account page's forms `POST /account/2fa/disable` (`code`) and `POST /account/2fa/recovery-codes` do the
 * same without script. Every change but the status needs what `mfa/authenticator-changes.ts` says: a recent AAL2 proof once the
 * account has a second factor, the password to start binding the first one.
 */

import { platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  jsonBody,
  jsonResponse,
  okBody,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { findUserById } from '../accounts/repository.js';
import { errors } from '../errors.js';
import { authorizeAuthenticatorChange, keepRequiredSecondFactor } from '../mfa/authenticator-changes.js';
import {
  acceptSecondFactorCode,
  confirmTotpEnrolment,
  guardCode,
  startTotpEnrolment,
  turnOffTotp,
} from '../mfa/enrolment.js';
import { issueRecoveryCodes, remainingRecoveryCodes } from '../mfa/recovery.js';
import { recordSecurityEvent } from '../self-service/security-log.js';
import type { SessionRecord } from '../sessions/store.js';
import type { IdentityContext } from './context.js';
import { readForm } from './forms.js';
import { accountPage, showAccountProblem } from './pages/routes.js';
import { withFormErrors } from './respond.js';
import { requestOrigin } from './sign-in.js';

const codeBody = jsonBody(z.object({ code: z.string().trim().min(1).max(64) }), {
  example: { code: '492039' },
});
/** The account's password, needed to bind a first second factor; optional once it has one. */
const passwordBody = {
  required: false,
  content: {
    'application/json': {
      schema: z.object({ password: z.string().max(1024).optional() }),
      example: { password: 'correct horse battery' },
    },
  },
};
const signedIn = [platformErrors.unauthenticated, 'Sign in first.'] as const;
/** A change of how the account signs in (mfa/authenticator-changes.ts), refused or in the wrong state. */
const failures = errorResponses(
  signedIn,
  errors.step_up_required,
  errors.password_required,
  errors.wrong_password,
  errors.totp_not_started,
  errors.totp_already_enabled,
  errors.totp_not_enabled,
  errors.second_factor_required,
);
/** Wrong codes count against the sign-in's lockout. */
const codeFailures = errorResponses(errors.invalid_code, platformErrors.rate_limited);

const statusRoute = createRoute({
  method: 'get',
  path: '/api/auth/2fa',
  summary: 'Whether 2FA is on',
  security: access.session,
  responses: {
    200: jsonResponse('Status', z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() }), {
      enabled: true,
      recoveryCodesLeft: 9,
    }),
    ...errorResponses(signedIn),
  },
});

const setupRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/setup',
  summary: 'Start 2FA enrolment: a new TOTP secret and its QR code',
  security: access.session,
  request: { body: passwordBody },
  responses: {
    200: jsonResponse(
      'Pending secret',
      z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() }),
    ),
    ...failures,
  },
});

const enableRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/enable',
  summary: 'Confirm enrolment with a first code; returns ten recovery codes',
  security: access.session,
  request: { body: codeBody },
  responses: {
    200: jsonResponse('Enabled', z.object({ ok: z.literal(true), recoveryCodes: z.array(z.string()) })),
    ...failures,
    ...codeFailures,
  },
});

const disableRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/disable',
  summary: 'Turn 2FA off with a current code or a recovery code',
  security: access.session,
  request: { body: codeBody },
  responses: {
    200: jsonResponse('Disabled', okBody),
    ...failures,
    ...codeFailures,
  },
});

const recoveryCodesRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/recovery-codes',
  summary: 'Replace the recovery codes with ten new ones',
  security: access.session,
  responses: {
    200: jsonResponse('New codes', z.object({ ok: z.literal(true), recoveryCodes: z.array(z.string()) })),
    ...failures,
  },
});

export function registerMfaRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  async function signedInUser(session: SessionRecord) {
    const user = await findUserById(db, session.userId);
    if (!user) throw platformErrors.unauthenticated('Sign in first.');
    return user;
  }

  const policy = identity.authenticatorChanges;
  /** Wrong codes count against the same lockout as the sign-in's second step. */
  const checkCode = (userId: string, check: () => Promise<boolean>) =>
    guardCode(identity.limiters.account, userId, check);

  app.openapi(statusRoute, async (c) => {
    const user = await signedInUser(await identity.requireSession(c));
    return c.json(
      { enabled: user.totp_secret !== null, recoveryCodesLeft: await remainingRecoveryCodes(db, user.id) },
      200,
    );
  });

  app.openapi(setupRoute, async (c) => {
    const session = await identity.requireSession(c);
    const user = await signedInUser(session);
    if (user.totp_secret) throw errors.totp_already_enabled();
    const password = (c.req.valid('json') as { password?: string } | undefined)?.password;
    await authorizeAuthenticatorChange(policy, session, user, { binding: true, password });
    return c.json(await startTotpEnrolment(db, identity.kek, user, identity.config.rpName), 200);
  });

  app.openapi(enableRoute, async (c) => {
    const session = await identity.requireSession(c);
    const user = await signedInUser(session);
    if (user.totp_secret) throw errors.totp_already_enabled();
    const pending = user.totp_pending_secret;
    if (!pending) throw errors.totp_not_started();
    await authorizeAuthenticatorChange(policy, session, user);
    const { code } = c.req.valid('json');
    await checkCode(user.id, () => confirmTotpEnrolment(db, identity.kek, user.id, pending, code));
    // The session keeps its level: a factor enrolled in a session never raises it (the next step-up uses it).
    const recoveryCodes = await issueRecoveryCodes(identity.database, user.id);
    await recordSecurityEvent(db, user.id, 'totp_enabled', requestOrigin(identity, c));
    return c.json({ ok: true as const, recoveryCodes }, 200);
  });

  /** Turns 2FA off with a current code or a recovery code. */
  async function disable(c: Context, code: string) {
    const session = await identity.requireSession(c);
    const user = await signedInUser(session);
    if (!user.totp_secret) throw errors.totp_not_enabled();
    const factors = await authorizeAuthenticatorChange(policy, session, user);
    await keepRequiredSecondFactor(db, user.id, factors, { totp: true });
    const secret = user.totp_secret;
    await checkCode(user.id, () => acceptSecondFactorCode(db, identity.kek, user.id, secret, code));
    await turnOffTotp(db, user.id);
    await recordSecurityEvent(db, user.id, 'totp_disabled', requestOrigin(identity, c));
  }

  /** Ten new recovery codes; the old ones stop working. */
  async function newRecoveryCodes(c: Context) {
    const session = await identity.requireSession(c);
    const user = await signedInUser(session);
    if (!user.totp_secret) throw errors.totp_not_enabled();
    await authorizeAuthenticatorChange(policy, session, user);
    const recoveryCodes = await issueRecoveryCodes(identity.database, user.id);
    await recordSecurityEvent(db, user.id, 'recovery_codes_regenerated', requestOrigin(identity, c));
    return recoveryCodes;
  }

  app.openapi(disableRoute, async (c) => {
    await disable(c, c.req.valid('json').code);
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(recoveryCodesRoute, async (c) =>
    c.json({ ok: true as const, recoveryCodes: await newRecoveryCodes(c) }, 200),
  );

  // The account page's forms without script: a 303 back, the new codes shown once on the page itself.
  const showProblem = (c: Context) => showAccountProblem(identity, c, 'totp');
  app.post('/account/2fa/disable', async (c) => {
    const code = ((await readForm(c)).code ?? '').trim().slice(0, 64);
    return withFormErrors(
      c,
      async () => {
        if (!code) throw platformErrors.invalid_request('Enter a code from your app or a recovery code.');
        await disable(c, code);
        return c.redirect('/account?notice=totp_disabled#totp-title', 303);
      },
      showProblem(c),
    );
  });
  app.post('/account/2fa/recovery-codes', (c) =>
    withFormErrors(
      c,
      async () => accountPage(identity, c, undefined, 200, { recoveryCodes: await newRecoveryCodes(c) }),
      showProblem(c),
    ),
  );
}
