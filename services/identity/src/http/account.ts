/**
 * @module http/account
 * The account console's API (session cookie; cross-site writes refused by the platform's CSRF check):
 * | GET    /api/account/sessions                  | → `{sessions}` (id, current, user_agent, address, created_at, last_seen_at) |
 * | DELETE /api/account/sessions/:id              | ends one of your sessions; 404 `session_not_found` for anyone else's |
 * | POST   /api/account/sessions/sign-out-others  | → `{ok, ended}` |
 * | POST   /api/account/password                  | `{current_password, new_password}` → `{ok, ended}`; other sessions end |
 * | POST   /api/account/profile                   | `{name}` → `{ok, name}` |
 * | POST   /api/account/email/verification        | e-mails an address-check link → `{ok}` |
 * | GET    /api/account/security-log              | → `{events}` (each with a short `device` name) |
 * The account page's forms post to `/account/…` with the same effects and come back with a 303; a failed
 * form post answers with the account page, the error next to its form (4xx).
 */

import { platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  jsonBody,
  jsonResponse,
  requestLocale,
  z,
} from '@xv/platform/http';
import { translator } from '@xv/platform/i18n';
import type { Context } from 'hono';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../accounts/passwords.js';
import { findUserById } from '../accounts/repository.js';
import { errors } from '../errors.js';
import { messages } from '../messages/index.js';
import { changePassword, setDisplayName } from '../self-service/profile.js';
import { recordSecurityEvent, securityLog } from '../self-service/security-log.js';
import { issueAccountToken } from '../self-service/tokens.js';
import type { IdentityContext } from './context.js';
import { readForm } from './forms.js';
import { deviceName } from './pages/console.js';
import type { AccountSection } from './pages/problem.js';
import { showAccountProblem } from './pages/routes.js';
import { withFormErrors } from './respond.js';
import { requestOrigin } from './sign-in.js';

const signedInErrors = errorResponses([platformErrors.unauthenticated, 'Sign in first.']);
const sessionItem = z
  .object({
    id: z.string(),
    current: z.boolean(),
    user_agent: z.string().nullable(),
    address: z.string().nullable(),
    created_at: z.number(),
    last_seen_at: z.number(),
  })
  .openapi('AccountSession');
const passwordChange = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  new_password: z.string().min(PASSWORD_MIN_LENGTH).max(PASSWORD_MAX_LENGTH),
});
const profile = z.object({ name: z.string().trim().min(1).max(200) });

const listSessionsRoute = createRoute({
  method: 'get',
  path: '/api/account/sessions',
  summary: 'Your active sessions and devices',
  security: access.session,
  responses: {
    200: jsonResponse('Sessions', z.object({ sessions: z.array(sessionItem) })),
    ...signedInErrors,
  },
});
const endSessionRoute = createRoute({
  method: 'delete',
  path: '/api/account/sessions/{id}',
  summary: 'Sign out one of your sessions',
  security: access.session,
  request: { params: z.object({ id: z.string().min(1).max(64).openapi({ example: 'ses_4f9c2a7d1e' }) }) },
  responses: {
    200: jsonResponse('Ended', z.object({ ok: z.literal(true) })),
    ...signedInErrors,
    ...errorResponses(errors.session_not_found),
  },
});
const endOthersRoute = createRoute({
  method: 'post',
  path: '/api/account/sessions/sign-out-others',
  summary: 'Sign out every session but this one',
  security: access.session,
  responses: {
    200: jsonResponse('Ended', z.object({ ok: z.literal(true), ended: z.number() })),
    ...signedInErrors,
  },
});
const passwordRoute = createRoute({
  method: 'post',
  path: '/api/account/password',
  summary: 'Change your password (the current one is required); your other sessions end',
  security: access.session,
  request: {
    body: jsonBody(passwordChange, {
      example: { current_password: 'correct horse battery', new_password: 'staple-lantern-orbit-42' },
    }),
  },
  responses: {
    200: jsonResponse('Changed', z.object({ ok: z.literal(true), ended: z.number() }), {
      ok: true,
      ended: 2,
    }),
    ...signedInErrors,
    ...errorResponses(errors.wrong_password, platformErrors.rate_limited),
  },
});
const profileRoute = createRoute({
  method: 'post',
  path: '/api/account/profile',
  summary: 'Change your display name',
  security: access.session,
  request: { body: jsonBody(profile, { example: { name: 'Ada Lovelace' } }) },
  responses: {
    200: jsonResponse('Saved', z.object({ ok: z.literal(true), name: z.string() })),
    ...signedInErrors,
  },
});
const verificationRoute = createRoute({
  method: 'post',
  path: '/api/account/email/verification',
  summary: 'E-mail a link that verifies your address',
  security: access.session,
  responses: { 200: jsonResponse('Sent', z.object({ ok: z.literal(true) })), ...signedInErrors },
});
const securityLogRoute = createRoute({
  method: 'get',
  path: '/api/account/security-log',
  summary: 'Sign-ins, failed attempts, password and factor changes of your account',
  security: access.session,
  responses: {
    200: jsonResponse(
      'Events, newest first',
      z.object({
        events: z.array(
          z.object({
            kind: z.string(),
            label: z.string(),
            at: z.number(),
            address: z.string().nullable(),
            user_agent: z.string().nullable(),
            detail: z.string().nullable(),
            device: z.string(),
          }),
        ),
      }),
    ),
    ...signedInErrors,
  },
});

export function registerAccountRoutes(app: App, identity: IdentityContext) {
  const { db, sessions } = identity;

  async function signedIn(c: Context) {
    const session = await identity.requireSession(c);
    const user = await findUserById(db, session.userId);
    if (!user) throw errors.user_not_found();
    return { session, user };
  }

  async function endOthers(c: Context) {
    const { session } = await signedIn(c);
    const ended = await sessions.revokeOthers(session.userId, session.id);
    await recordSecurityEvent(
      db,
      session.userId,
      'sessions_ended',
      requestOrigin(identity, c),
      String(ended),
    );
    return ended;
  }

  async function newPassword(c: Context, current: string, next: string) {
    const { session, user } = await signedIn(c);
    await changePassword(db, identity.limiters.account, user, { current, next });
    const ended = await sessions.revokeOthers(user.id, session.id);
    await recordSecurityEvent(db, user.id, 'password_changed', requestOrigin(identity, c));
    return ended;
  }

  async function sendVerification(c: Context) {
    const { user } = await signedIn(c);
    const token = await issueAccountToken(db, user.id, 'email_verification');
    // Written in the language of the page the link was asked from.
    const t = translator(messages, requestLocale(c));
    await identity.mailer.send({
      to: user.email,
      subject: t('mail.verify.subject'),
      text: t('mail.verify.body', {
        email: user.email,
        link: `${identity.identityUrl}/verify-email/${token}`,
      }),
    });
  }

  app.openapi(listSessionsRoute, async (c) => {
    const { session } = await signedIn(c);
    const listed = await sessions.listOf(session.userId);
    return c.json({ sessions: listed.map((s) => ({ ...s, current: s.id === session.id })) }, 200);
  });
  app.openapi(endSessionRoute, async (c) => {
    const { session } = await signedIn(c);
    if (!(await sessions.revokeById(session.userId, c.req.valid('param').id)))
      throw errors.session_not_found();
    return c.json({ ok: true as const }, 200);
  });
  app.openapi(endOthersRoute, async (c) => c.json({ ok: true as const, ended: await endOthers(c) }, 200));
  app.openapi(passwordRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(
      { ok: true as const, ended: await newPassword(c, body.current_password, body.new_password) },
      200,
    );
  });
  app.openapi(profileRoute, async (c) => {
    const { session } = await signedIn(c);
    const { name } = c.req.valid('json');
    await setDisplayName(db, session.userId, name);
    sessions.forgetUser(session.userId);
    return c.json({ ok: true as const, name }, 200);
  });
  app.openapi(verificationRoute, async (c) => {
    await sendVerification(c);
    return c.json({ ok: true as const }, 200);
  });
  app.openapi(securityLogRoute, async (c) => {
    const { session } = await signedIn(c);
    const events = await securityLog(db, session.userId);
    return c.json(
      { events: events.map((event) => ({ ...event, device: deviceName(event.user_agent) })) },
      200,
    );
  });

  // The account page's forms: the same effects, a 303 back to the page; a failure answers with the page,
  // the error next to the form.
  const back = (c: Context, notice: string, anchor: string) =>
    c.redirect(`/account?notice=${notice}#${anchor}`, 303);
  const showProblem = (c: Context, section: AccountSection, values?: Record<string, string>) =>
    showAccountProblem(identity, c, section, values);
  app.post('/account/sessions/sign-out-others', (c) =>
    withFormErrors(
      c,
      async () => {
        await endOthers(c);
        return back(c, 'sessions_ended', 'sessions-title');
      },
      showProblem(c, 'sessions'),
    ),
  );
  app.post('/account/sessions/:id/sign-out', (c) =>
    withFormErrors(
      c,
      async () => {
        const { session } = await signedIn(c);
        if (!(await sessions.revokeById(session.userId, c.req.param('id')))) throw errors.session_not_found();
        return back(c, 'session_ended', 'sessions-title');
      },
      showProblem(c, 'sessions'),
    ),
  );
  app.post('/account/password', async (c) => {
    const parsed = passwordChange.safeParse(await readForm(c));
    const problem = showProblem(c, 'password');
    if (!parsed.success)
      return problem({
        code: 'password_change_invalid',
        message: 'Enter your current password and a new one of at least 6 characters.',
        status: 400,
      });
    return withFormErrors(
      c,
      async () => {
        await newPassword(c, parsed.data.current_password, parsed.data.new_password);
        return back(c, 'password_changed', 'password-title');
      },
      problem,
    );
  });
  app.post('/account/profile', async (c) => {
    const form = await readForm(c);
    const parsed = profile.safeParse(form);
    // What was typed comes back in the field, cut to what the field takes.
    const problem = showProblem(c, 'profile', { name: (form.name ?? '').slice(0, 200) });
    if (!parsed.success)
      return problem({
        code: 'display_name_invalid',
        message: 'Enter a name of 1 to 200 characters.',
        status: 400,
      });
    return withFormErrors(
      c,
      async () => {
        const { session } = await signedIn(c);
        await setDisplayName(db, session.userId, parsed.data.name);
        sessions.forgetUser(session.userId);
        return back(c, 'profile_saved', 'profile-edit-title');
      },
      problem,
    );
  });
  app.post('/account/email/verification', (c) =>
    withFormErrors(
      c,
      async () => {
        await sendVerification(c);
        return back(c, 'verification_sent', 'profile-edit-title');
      },
      showProblem(c, 'profile'),
    ),
  );
}
