/**
 * @module mfa/routes
 * 2FA enrolment (contract.md), for a signed-in user:
 * | POST /api/auth/2fa/setup   |            | `{secret, otpauthUrl, qrSvg}` (a pending secret) |
 * | POST /api/auth/2fa/enable  | `{code}`   | `{ok, recoveryCodes}` (10 codes, shown once); the session becomes AAL2 |
 * | POST /api/auth/2fa/disable | `{code}`   | `{ok}`; a current TOTP code or a recovery code is needed |
 * | GET  /api/auth/2fa         |            | `{enabled, recoveryCodesLeft}` |
 */
import { type App, consumeOrReject, createRoute, isLimited, z } from '@xv/platform';
import { findUserById } from '../accounts/repository.js';
import { elevateSession } from '../auth/web.js';
import type { IdentityContext } from '../context.js';
import { errors } from '../errors.js';
import { errorBody, jsonBody, jsonResponse, okBody } from '../schemas.js';
import type { SessionRecord } from '../sessions/store.js';
import {
  deleteRecoveryCodes,
  issueRecoveryCodes,
  remainingRecoveryCodes,
  useRecoveryCode,
} from './recovery.js';
import {
  acceptTotp,
  enrolment,
  matchingStep,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
  TOTP_CODE,
} from './totp.js';

const codeBody = jsonBody(z.object({ code: z.string().trim().min(1).max(64) }));
const failures = {
  401: jsonResponse('Not signed in', errorBody),
  409: jsonResponse('Wrong state', errorBody),
};

const statusRoute = createRoute({
  method: 'get',
  path: '/api/auth/2fa',
  summary: 'Whether 2FA is on',
  responses: {
    200: jsonResponse('Status', z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() })),
    401: failures[401],
  },
});

const setupRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/setup',
  summary: 'Start 2FA enrolment: a new TOTP secret and its QR code',
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
  request: { body: codeBody },
  responses: {
    200: jsonResponse('Enabled', z.object({ ok: z.literal(true), recoveryCodes: z.array(z.string()) })),
    400: jsonResponse('Wrong code', errorBody),
    429: jsonResponse('Too many wrong codes', errorBody),
    ...failures,
  },
});

const disableRoute = createRoute({
  method: 'post',
  path: '/api/auth/2fa/disable',
  summary: 'Turn 2FA off with a current code or a recovery code',
  request: { body: codeBody },
  responses: {
    200: jsonResponse('Disabled', okBody),
    400: jsonResponse('Wrong code', errorBody),
    429: jsonResponse('Too many wrong codes', errorBody),
    ...failures,
  },
});

export function registerMfaRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  async function signedInUser(session: SessionRecord) {
    const user = await findUserById(db, session.userId);
    if (!user) throw errors.unauthenticated();
    return user;
  }

  /** Wrong codes count against the same lockout as the sign-in's second step. */
  async function guardCode(userId: string, check: () => Promise<boolean>) {
    const key = `mfa:${userId}`;
    const limited = await isLimited(identity.limiters.account, key);
    if (limited) await consumeOrReject(identity.limiters.account, key);
    if (await check()) return;
    await consumeOrReject(identity.limiters.account, key);
    throw errors.invalid_code();
  }

  app.openapi(statusRoute, async (c) => {
    const user = await signedInUser(await identity.requireSession(c));
    return c.json(
      { enabled: user.totp_secret !== null, recoveryCodesLeft: await remainingRecoveryCodes(db, user.id) },
      200,
    );
  });

  app.openapi(setupRoute, async (c) => {
    const user = await signedInUser(await identity.requireSession(c));
    if (user.totp_secret) throw errors.totp_already_enabled();
    const secret = newTotpSecret();
    await db
      .updateTable('users')
      .set({ totp_pending_secret: sealTotpSecret(identity.kek, user.id, secret) })
      .where('id', '=', user.id)
      .execute();
    return c.json(await enrolment(secret, user.email, identity.config.rpName), 200);
  });

  app.openapi(enableRoute, async (c) => {
    const session = await identity.requireSession(c);
    const user = await signedInUser(session);
    if (user.totp_secret) throw errors.totp_already_enabled();
    const pending = user.totp_pending_secret;
    if (!pending) throw errors.totp_not_started();
    const { code } = c.req.valid('json');
    await guardCode(user.id, async () => {
      const step = matchingStep(openTotpSecret(identity.kek, user.id, pending), code);
      if (step === null) return false;
      const result = await db
        .updateTable('users')
        .set({ totp_secret: pending, totp_pending_secret: null, totp_last_step: step })
        .where('id', '=', user.id)
        .where('totp_pending_secret', '=', pending)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    });
    const recoveryCodes = await issueRecoveryCodes(identity.database, user.id);
    // The person just proved both their password session and the new authenticator.
    await elevateSession(identity, c, session, { amr: ['otp'], aal: 'AAL2' });
    return c.json({ ok: true as const, recoveryCodes }, 200);
  });

  app.openapi(disableRoute, async (c) => {
    const user = await signedInUser(await identity.requireSession(c));
    if (!user.totp_secret) throw errors.totp_not_enabled();
    const secret = openTotpSecret(identity.kek, user.id, user.totp_secret);
    const { code } = c.req.valid('json');
    await guardCode(user.id, () =>
      TOTP_CODE.test(code) ? acceptTotp(db, user.id, secret, code) : useRecoveryCode(db, user.id, code),
    );
    await db
      .updateTable('users')
      .set({ totp_secret: null, totp_pending_secret: null })
      .where('id', '=', user.id)
      .execute();
    await deleteRecoveryCodes(db, user.id);
    return c.json({ ok: true as const }, 200);
  });
}
