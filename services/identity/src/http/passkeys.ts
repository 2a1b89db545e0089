/**
 * @module http/passkeys
 * Passkeys, the AAL3 method (contract.md):
 * | POST   /api/auth/passkey/register/options | session | WebAuthn creation options |
 * | POST   /api/auth/passkey/register/verify  | session | `{response, name?}` → `{ok, id, name, aal}` |
 * | POST   /api/auth/passkey/login/options    | none    | WebAuthn request options |
 * | POST   /api/auth/passkey/login/verify     | none    | `{response, redirect?}` → `{ok, aal, redirect}`, sets `xv_session` |
 * | GET    /api/auth/passkeys                 | session | `{passkeys}` |
 * | DELETE /api/auth/passkeys/{id}            | session | `{ok}` |
 * `POST /account/passkeys/{id}/remove` is the account page's form for a removal without script.
 * Creating and removing a passkey are authenticator changes (`mfa/authenticator-changes.ts`): a recent
 * AAL2 proof once the account has a second factor, the password (`{password}` on the creation options)
 * to bind the first one. Registering never raises the session's level: signing in with the passkey does.
 */

import { consumeOrReject, isLimited, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  clientIp,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  okBody,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { findUserById } from '../accounts/repository.js';
import { errors } from '../errors.js';
import { authorizeAuthenticatorChange, keepRequiredSecondFactor } from '../mfa/authenticator-changes.js';
import {
  authenticationOptions,
  completeAuthentication,
  completeRegistration,
  passkeyAssurance,
  passkeyListing,
  type RelyingParty,
  registrationOptions,
  removePasskey,
} from '../passkeys/webauthn.js';
import { recordSecurityEvent } from '../self-service/security-log.js';
import type { IdentityContext } from './context.js';
import { showAccountProblem } from './pages/routes.js';
import { safeRedirect } from './redirects.js';
import { withFormErrors } from './respond.js';
import { finishPasskeySignIn, requestOrigin } from './sign-in.js';

// The browser's PublicKeyCredential JSON; @simplewebauthn checks its inside.
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(8192) }),
});

const options = z.looseObject({ challenge: z.string() });
const unauthenticated = jsonErrorResponse('Not signed in', [
  platformErrors.unauthenticated,
  'Sign in first.',
]);
const rejected = jsonErrorResponse('The response could not be verified', errors.passkey_rejected);
const changeRefused = jsonErrorResponse(
  'step_up_required (with aal and stepUpUrl), password_required or wrong_password',
  errors.step_up_required,
  errors.password_required,
  errors.wrong_password,
);
const tooManyAttempts = jsonErrorResponse('Too many attempts', platformErrors.rate_limited);
/** What a browser's `navigator.credentials` call gives back, serialized. */
const credentialExample = {
  id: 'hL6bJ0pG3x0KqYc1n2T5Vw',
  rawId: 'hL6bJ0pG3x0KqYc1n2T5Vw',
  type: 'public-key' as const,
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0IiwiY2hhbGxlbmdlIjoiLi4uIn0',
    authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
    signature: 'MEUCIQDn…',
  },
};

const registerOptionsRoute = createRoute({
  method: 'post',
  path: '/api/auth/passkey/register/options',
  summary: 'Options to create a passkey',
  security: access.session,
  request: {
    body: {
      required: false,
      content: {
        'application/json': {
          schema: z.object({ password: z.string().max(1024).optional() }),
          example: { password: 'correct horse battery' },
        },
      },
    },
  },
  responses: {
    200: jsonResponse('Creation options', options),
    401: unauthenticated,
    403: changeRefused,
  },
});

const registerVerifyRoute = createRoute({
  method: 'post',
  path: '/api/auth/passkey/register/verify',
  summary: 'Store a new passkey',
  security: access.session,
  request: {
    body: jsonBody(z.object({ response: credentialJson, name: z.string().trim().max(100).optional() }), {
      example: { response: credentialExample, name: 'YubiKey 5C' },
    }),
  },
  responses: {
    200: jsonResponse(
      'Stored',
      z.object({
        ok: z.literal(true),
        id: z.string(),
        name: z.string(),
        aal: z.enum(['AAL1', 'AAL2', 'AAL3']),
      }),
    ),
    400: rejected,
    401: unauthenticated,
    403: changeRefused,
  },
});

const loginOptionsRoute = createRoute({
  method: 'post',
  path: '/api/auth/passkey/login/options',
  summary: 'Options to sign in (or step up) with a passkey',
  security: access.public,
  responses: {
    200: jsonResponse('Request options', options, { challenge: 'x3Pq9vL2mT8kR1wZ5yN0bA' }),
    429: tooManyAttempts,
  },
});

const loginVerifyRoute = createRoute({
  method: 'post',
  path: '/api/auth/passkey/login/verify',
  summary: 'Sign in (or step up) with a passkey',
  security: access.public,
  request: {
    body: jsonBody(z.object({ response: credentialJson, redirect: z.string().max(2048).optional() }), {
      example: { response: credentialExample, redirect: 'https://kb.example.com/review' },
    }),
  },
  responses: {
    200: jsonResponse(
      'Signed in',
      z.object({ ok: z.literal(true), aal: z.enum(['AAL1', 'AAL2', 'AAL3']), redirect: z.string() }),
    ),
    400: rejected,
    429: tooManyAttempts,
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/auth/passkeys',
  summary: "The signed-in user's passkeys",
  security: access.session,
  responses: {
    200: jsonResponse(
      'Passkeys',
      z.object({
        passkeys: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            aal: z.string(),
            created_at: z.number(),
            last_used_at: z.number().nullable(),
          }),
        ),
      }),
    ),
    401: unauthenticated,
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/api/auth/passkeys/{id}',
  summary: 'Remove a passkey',
  security: access.session,
  request: { params: z.object({ id: z.string().max(1024).openapi({ example: 'hL6bJ0pG3x0KqYc1n2T5Vw' }) }) },
  responses: {
    200: jsonResponse('Removed', okBody),
    401: unauthenticated,
    403: changeRefused,
    404: jsonErrorResponse('No such passkey', [platformErrors.not_found, 'No passkey of yours has that id.']),
    409: jsonErrorResponse('second_factor_required', errors.second_factor_required),
  },
});

export function relyingParty(identity: IdentityContext): RelyingParty {
  return {
    id: identity.config.rpId ?? identity.sharedDomain,
    name: identity.config.rpName,
    origins: [identity.ownOrigin],
    trustedRoots: identity.config.passkeyTrustedRoots,
  };
}

export function registerPasskeyRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;
  const rp = relyingParty(identity);
  const trustProxy = identity.service.settings.trustProxy;

  app.openapi(registerOptionsRoute, async (c) => {
    const session = await identity.requireSession(c);
    const user = await findUserById(db, session.userId);
    if (!user) throw platformErrors.unauthenticated('Sign in first.');
    const password = (c.req.valid('json') as { password?: string } | undefined)?.password;
    await authorizeAuthenticatorChange(identity.authenticatorChanges, session, user, {
      binding: true,
      password,
    });
    return c.json(await registrationOptions(db, rp, user), 200);
  });

  app.openapi(registerVerifyRoute, async (c) => {
    const session = await identity.requireSession(c);
    const user = await findUserById(db, session.userId);
    if (!user) throw platformErrors.unauthenticated('Sign in first.');
    // The options needed the password when the account had no second factor; if it has one now, a recent AAL2.
    await authorizeAuthenticatorChange(identity.authenticatorChanges, session, user);
    const body = c.req.valid('json');
    const name = body.name || `Passkey ${new Date().toISOString().slice(0, 10)}`;
    const passkey = await completeRegistration(db, rp, user, body.response as never, name);
    if (!passkey) throw errors.passkey_rejected();
    const aal = passkeyAssurance({
      deviceBound: passkey.device_bound === 1,
      userVerified: passkey.user_verified === 1,
    });
    await recordSecurityEvent(db, user.id, 'passkey_added', requestOrigin(identity, c), name);
    return c.json({ ok: true as const, id: passkey.id, name, aal }, 200);
  });

  app.openapi(loginOptionsRoute, async (c) => {
    const ip = clientIp(c, trustProxy);
    if (await isLimited(identity.limiters.passkey, ip)) throw platformErrors.rate_limited();
    const session = await identity.currentSession(c);
    return c.json(await authenticationOptions(db, rp, session?.userId ?? null), 200);
  });

  app.openapi(loginVerifyRoute, async (c) => {
    const ip = clientIp(c, trustProxy);
    if (await isLimited(identity.limiters.passkey, ip)) throw platformErrors.rate_limited();
    const body = c.req.valid('json');
    const result = await completeAuthentication(db, rp, body.response as never);
    // A disabled account is refused like an unknown passkey: the answer does not reveal its state.
    if (!result || (await findUserById(db, result.userId))?.disabled_at !== null) {
      await consumeOrReject(identity.limiters.passkey, ip).catch(() => {});
      throw errors.passkey_rejected();
    }
    const redirect = safeRedirect(body.redirect, identity.redirectPolicy) ?? '/account';
    const aal = await finishPasskeySignIn(identity, c, result);
    return c.json({ ok: true as const, aal, redirect }, 200);
  });

  app.openapi(listRoute, async (c) => {
    const session = await identity.requireSession(c);
    return c.json({ passkeys: await passkeyListing(db, session.userId) }, 200);
  });

  /** Removes one of the signed-in person's passkeys (an authenticator change). */
  async function remove(c: Context, id: string) {
    const session = await identity.requireSession(c);
    const user = await findUserById(db, session.userId);
    if (!user) throw platformErrors.unauthenticated('Sign in first.');
    const factors = await authorizeAuthenticatorChange(identity.authenticatorChanges, session, user);
    await keepRequiredSecondFactor(db, user.id, factors, { passkeyId: id });
    if (!(await removePasskey(db, session.userId, id)))
      throw platformErrors.not_found('No passkey of yours has that id.');
    await recordSecurityEvent(db, user.id, 'passkey_removed', requestOrigin(identity, c));
  }

  app.openapi(deleteRoute, async (c) => {
    await remove(c, c.req.valid('param').id);
    return c.json({ ok: true as const }, 200);
  });

  // The account page's form without script.
  app.post('/account/passkeys/:id/remove', (c) =>
    withFormErrors(
      c,
      async () => {
        await remove(c, c.req.param('id'));
        return c.redirect('/account?notice=passkey_removed#passkeys-title', 303);
      },
      showAccountProblem(identity, c, 'passkeys'),
    ),
  );
}
