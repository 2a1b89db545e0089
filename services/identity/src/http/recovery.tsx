/**
 * @module http/recovery
 * Password reset and address checks by e-mail.
 * | POST /api/auth/password-reset         | none    | `{email, realm?}` → 202 `{ok}` whether or not the address has an account in the realm |
 * | POST /api/auth/password-reset/confirm | none    | `{token, password}` → `{ok}`; every session of the account ends; 400 `reset_token_invalid` |
 * | POST /api/account/email/verify        | none    | `{token}` → `{ok}`; 400 `reset_token_invalid` |
 * Pages: `GET|POST /password-reset`, `GET|POST /password-reset/:token`, `GET|POST /verify-email/:token`.
 * Reset tokens work once, for one hour; a new request replaces the previous link. Requests are limited per
 * client address (the registration limit), so the form cannot be used to flood a mailbox. An address is an
 * account of one realm (`realm`, default `default`, as on `/login?realm=`): the link resets that account
 * and no other, since the token names the account, not the address. A failed form post answers with its
 * page (error shown, the e-mail address kept), never with the JSON error.
 */
import { consumeOrReject, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  clientIp,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  requestLocale,
  sameSiteOnly,
  z,
} from '@xv/platform/http';
import { translator } from '@xv/platform/i18n';
import type { Context } from 'hono';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';
import { DEFAULT_REALM, findUserByEmail, findUserById, REALM_ID } from '../accounts/repository.js';
import { errors } from '../errors.js';
import { errorText, messages } from '../messages/index.js';
import { markEmailVerified, setPassword } from '../self-service/profile.js';
import { recordSecurityEvent } from '../self-service/security-log.js';
import { issueAccountToken, peekAccountToken, spendAccountToken } from '../self-service/tokens.js';
import type { IdentityContext } from './context.js';
import { readForm, withQuery } from './forms.js';
import { NewPasswordPage, ResetRequestPage, VerifyEmailPage } from './pages/recovery.js';
import { type PageMessage, sendMessage, sendPage, withFormErrors } from './respond.js';
import { requestOrigin } from './sign-in.js';

const newPassword = z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH);
const realmId = z.string().regex(REALM_ID);
const resetRequest = z.object({ email: z.email().max(254), realm: realmId.optional() });

/** The sign-in page of a realm (the default realm's needs no query). */
const signInPage = (realm: string) => withQuery('/login', { realm: realm === DEFAULT_REALM ? null : realm });

const requestRoute = createRoute({
  method: 'post',
  path: '/api/auth/password-reset',
  summary: 'E-mail a password-reset link (the answer is the same whether or not the address has an account)',
  security: access.public,
  request: {
    body: jsonBody(resetRequest, { example: { email: 'ada@acme.example', realm: 'default' } }),
  },
  responses: {
    202: jsonResponse('Sent if the account exists', z.object({ ok: z.literal(true) })),
    400: jsonErrorResponse('Not an e-mail address, or not a realm id'),
    429: jsonErrorResponse('Too many requests from this address', platformErrors.rate_limited),
  },
});
const confirmRoute = createRoute({
  method: 'post',
  path: '/api/auth/password-reset/confirm',
  summary: "Set a new password with a reset link's token; every session of the account ends",
  security: access.public,
  request: {
    body: jsonBody(z.object({ token: z.string().min(1).max(200), password: newPassword }), {
      example: { token: 'Xk3v9QpL2mW8rT5yB1nC7dF4gH0jS6aE', password: 'staple-lantern-orbit-42' },
    }),
  },
  responses: {
    200: jsonResponse('Changed', z.object({ ok: z.literal(true) })),
    400: jsonErrorResponse('Used, replaced, expired or unknown token', errors.reset_token_invalid),
  },
});
const verifyRoute = createRoute({
  method: 'post',
  path: '/api/account/email/verify',
  summary: "Verify an account's e-mail address with the token of its link",
  security: access.public,
  request: {
    body: jsonBody(z.object({ token: z.string().min(1).max(200) }), {
      example: { token: 'Xk3v9QpL2mW8rT5yB1nC7dF4gH0jS6aE' },
    }),
  },
  responses: {
    200: jsonResponse('Verified', z.object({ ok: z.literal(true) })),
    400: jsonErrorResponse('Used, replaced, expired or unknown token', errors.reset_token_invalid),
  },
});

export function registerRecoveryRoutes(app: App, identity: IdentityContext) {
  const { db, assets } = identity;
  const trustProxy = identity.service.settings.trustProxy;
  const noStore = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
  // Like sign-in: a foreign page must not start a reset or spend a link in the visitor's browser.
  app.use('/password-reset', sameSiteOnly(identity.redirectPolicy));
  app.use('/password-reset/*', sameSiteOnly(identity.redirectPolicy));
  app.use('/api/auth/password-reset', sameSiteOnly(identity.redirectPolicy));

  async function requestReset(c: Context, email: string, realm: string) {
    await consumeOrReject(identity.limiters.registration, `reset:${clientIp(c, trustProxy)}`);
    const user = await findUserByEmail(db, realm, email);
    if (!user || user.disabled_at !== null) return;
    const token = await issueAccountToken(db, user.id, 'password_reset');
    await recordSecurityEvent(db, user.id, 'password_reset_requested', requestOrigin(identity, c));
    // Written in the language of the page the reset was asked from.
    const t = translator(messages, requestLocale(c));
    await identity.mailer.send({
      to: user.email,
      subject: t('mail.reset.subject'),
      text: t('mail.reset.body', {
        email: user.email,
        link: `${identity.identityUrl}/password-reset/${token}`,
      }),
    });
  }

  /** Spends the token and sets the password of its account: that account's realm, or null when the token is not valid. */
  async function reset(c: Context, token: string, password: string) {
    const userId = await spendAccountToken(db, token, 'password_reset');
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user) return null;
    await setPassword(db, user.id, password);
    await identity.sessions.revokeAllOf(user.id);
    await recordSecurityEvent(db, user.id, 'password_reset', requestOrigin(identity, c));
    return user.realm_id;
  }

  async function verify(c: Context, token: string) {
    const userId = await spendAccountToken(db, token, 'email_verification');
    if (!userId) return false;
    await markEmailVerified(db, userId);
    await recordSecurityEvent(db, userId, 'email_verified', requestOrigin(identity, c));
    return true;
  }

  const invalidLink = (c: Context) =>
    sendMessage(
      identity,
      c,
      {
        title: 'linkInvalid.title',
        message: 'error.reset_token_invalid',
        link: { href: '/password-reset', text: 'linkInvalid.newLink' },
      },
      400,
      noStore,
    );
  const done = (c: Context, message: PageMessage) => sendMessage(identity, c, message, 200, noStore);
  /** The realm a page names (`?realm=` or the form's field), when it is a realm id. */
  const realmOf = (value: string | undefined) => (value && REALM_ID.test(value) ? value : DEFAULT_REALM);

  app.openapi(requestRoute, async (c) => {
    const { email, realm } = c.req.valid('json');
    await requestReset(c, email, realm ?? DEFAULT_REALM);
    return c.json({ ok: true as const }, 202);
  });
  app.openapi(confirmRoute, async (c) => {
    const { token, password } = c.req.valid('json');
    if ((await reset(c, token, password)) === null) throw errors.reset_token_invalid();
    return c.json({ ok: true as const }, 200);
  });
  app.openapi(verifyRoute, async (c) => {
    if (!(await verify(c, c.req.valid('json').token))) throw errors.reset_token_invalid();
    return c.json({ ok: true as const }, 200);
  });

  app.get('/password-reset', (c) => {
    const realm = realmOf(c.req.query('realm'));
    return sendPage(
      identity,
      c,
      <ResetRequestPage sent={c.req.query('sent') === '1'} realm={realm} assets={assets} />,
      200,
      noStore,
    );
  });
  app.post('/password-reset', async (c) => {
    const form = await readForm(c);
    const realm = realmOf(form.realm);
    const typed = form.email?.trim().slice(0, 254) ?? '';
    const t = translator(messages, requestLocale(c));
    const page = (error: string, status: 400 | 429) =>
      sendPage(
        identity,
        c,
        <ResetRequestPage sent={false} realm={realm} email={typed} error={error} assets={assets} />,
        status,
        noStore,
      );
    const parsed = resetRequest.safeParse({ email: typed, realm });
    if (!parsed.success) return page(t('reset.error.email'), 400);
    return withFormErrors(
      c,
      async () => {
        await requestReset(c, parsed.data.email, realm);
        return c.redirect(
          withQuery('/password-reset', { sent: '1', realm: realm === DEFAULT_REALM ? null : realm }),
          303,
        );
      },
      (error) => page(errorText(t, error), error.status === 429 ? 429 : 400),
    );
  });
  app.get('/password-reset/:token', async (c) => {
    const token = c.req.param('token');
    if (!(await peekAccountToken(db, token, 'password_reset'))) return invalidLink(c);
    return sendPage(
      identity,
      c,
      <NewPasswordPage token={token} error={false} assets={assets} />,
      200,
      noStore,
    );
  });
  app.post('/password-reset/:token', async (c) => {
    const token = c.req.param('token');
    const password = newPassword.safeParse((await readForm(c)).password);
    if (!password.success) {
      if (!(await peekAccountToken(db, token, 'password_reset'))) return invalidLink(c);
      return sendPage(identity, c, <NewPasswordPage token={token} error assets={assets} />, 400, noStore);
    }
    const realm = await reset(c, token, password.data);
    if (realm === null) return invalidLink(c);
    return done(c, {
      title: 'passwordChanged.title',
      message: 'passwordChanged.message',
      link: { href: signInPage(realm), text: 'passwordChanged.signIn' },
    });
  });
  app.get('/verify-email/:token', async (c) => {
    const token = c.req.param('token');
    const userId = await peekAccountToken(db, token, 'email_verification');
    const user = userId ? await findUserById(db, userId) : undefined;
    if (!user) return invalidLink(c);
    return sendPage(
      identity,
      c,
      <VerifyEmailPage token={token} email={user.email} assets={assets} />,
      200,
      noStore,
    );
  });
  app.post('/verify-email/:token', async (c) => {
    if (!(await verify(c, c.req.param('token')))) return invalidLink(c);
    return done(c, {
      title: 'emailVerified.title',
      message: 'emailVerified.message',
      link: { href: '/account', text: 'link.account' },
    });
  });
}
