/**
 * @module http/invitations
 * | POST   /api/org/invitations            | session, `members:manage` | `{email, role}` | 201 `{invitation}`, e-mails the link |
 * | GET    /api/org/invitations            | session, `members:manage` | — | `{org_id, invitations}` (pending) |
 * | POST   /api/org/invitations/:id/resend | session, `members:manage` | — | `{invitation}`: a new link, the old one dies |
 * | DELETE /api/org/invitations/:id        | session, `members:manage` | — | `{ok}` |
 * | POST   /api/invitations/accept         | session                   | `{token}` | `{ok, org_id, role}` |
 * Pages: `GET /invitations/:token` (join page), `POST /invitations/:token` (join, 303 to `/account`), and the
 * account page's forms `POST /account/invitations`, `…/:id/resend`, `…/:id/revoke` (303 back to `/account`).
 * All act in the administrator's active organization; cross-site form posts are refused (platform CSRF check).
 */
import { ORG_COOKIE, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  requestLocale,
  sharedCookieOptions,
  z,
} from '@xv/platform/http';
import { translator } from '@xv/platform/i18n';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { findOrganization, findUserById } from '../accounts/repository.js';
import { isRole, ROLES, type Role } from '../accounts/roles.js';
import { errors } from '../errors.js';
import {
  acceptInvitation,
  createInvitation,
  openInvitation,
  pendingInvitations,
  renewInvitation,
  revokeInvitation,
} from '../invitations/invitations.js';
import { errorText, messages, roleLabel } from '../messages/index.js';
import type { IdentityContext } from './context.js';
import { readForm } from './forms.js';
import { activeOrganization } from './organizations.js';
import { InvitationPage, type InvitationView } from './pages/invitation.js';
import { accountPage } from './pages/routes.js';
import { type FormError, sendMessage, sendPage, withFormErrors } from './respond.js';

const invitation = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.string(),
    created_at: z.number(),
    expires_at: z.number(),
  })
  .openapi('Invitation');
const adminErrors = {
  401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
  403: jsonErrorResponse('Not an administrator', errors.no_active_organization, errors.admin_required),
};
const invitationPath = z.object({ id: z.string().min(1).max(64).openapi({ example: 'inv_3h7k9m' }) });
const invitationNotFound = jsonErrorResponse(
  'No pending invitation of the organization has that id',
  errors.invitation_not_found,
);

const inviteRoute = createRoute({
  method: 'post',
  path: '/api/org/invitations',
  summary: 'Invite someone by e-mail to the active organization',
  security: access.session,
  request: {
    body: jsonBody(z.object({ email: z.email().max(254), role: z.enum(ROLES) }), {
      example: { email: 'grace@acme.example', role: 'member' },
    }),
  },
  responses: {
    201: jsonResponse('Invited; the link was e-mailed', z.object({ invitation }), {
      invitation: {
        id: 'inv_3h7k9m',
        email: 'grace@acme.example',
        role: 'member',
        created_at: 1768469400000,
        expires_at: 1769074200000,
      },
    }),
    ...adminErrors,
    409: jsonErrorResponse('Already a member', errors.already_member),
  },
});
const listRoute = createRoute({
  method: 'get',
  path: '/api/org/invitations',
  summary: 'Pending invitations of the active organization',
  security: access.session,
  responses: {
    200: jsonResponse('Pending', z.object({ org_id: z.string(), invitations: z.array(invitation) })),
    ...adminErrors,
  },
});
const resendRoute = createRoute({
  method: 'post',
  path: '/api/org/invitations/{id}/resend',
  summary: 'Send a pending invitation again with a new link (the old link stops working)',
  security: access.session,
  request: { params: invitationPath },
  responses: {
    200: jsonResponse('Sent again', z.object({ invitation })),
    ...adminErrors,
    404: invitationNotFound,
  },
});
const revokeRoute = createRoute({
  method: 'delete',
  path: '/api/org/invitations/{id}',
  summary: 'Revoke a pending invitation',
  security: access.session,
  request: { params: invitationPath },
  responses: {
    200: jsonResponse('Revoked', z.object({ ok: z.literal(true) })),
    ...adminErrors,
    404: invitationNotFound,
  },
});
const acceptRoute = createRoute({
  method: 'post',
  path: '/api/invitations/accept',
  summary: "Join an invitation's organization with the signed-in account",
  security: access.session,
  request: {
    body: jsonBody(z.object({ token: z.string().min(1).max(200) }), {
      example: { token: 'Xk3v9QpL2mW8rT5yB1nC7dF4gH0jS6aE' },
    }),
  },
  responses: {
    200: jsonResponse('Joined', z.object({ ok: z.literal(true), org_id: z.string(), role: z.string() }), {
      ok: true,
      org_id: 'org_acme',
      role: 'member',
    }),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('The invitation was sent to another address', errors.invitation_other_account),
    404: jsonErrorResponse('Used, revoked, replaced, expired or unknown', errors.invitation_not_found),
  },
});

export function registerInvitationRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  async function adminOrg(c: Context) {
    const session = await identity.requireSession(c);
    const { org_id } = activeOrganization(c, session, 'members:manage');
    const org = await findOrganization(db, org_id);
    if (!org) throw errors.org_not_found();
    return { session, org };
  }

  /** E-mails the link, in the language of the inviter's page (the invitee's own is not known yet). */
  async function mailLink(
    c: Context,
    to: string,
    orgName: string,
    role: string,
    token: string,
    inviter: string,
  ) {
    const t = translator(messages, requestLocale(c));
    await identity.mailer.send({
      to,
      subject: t('mail.invitation.subject', { org: orgName }),
      text: t('mail.invitation.body', {
        inviter,
        org: orgName,
        role: roleLabel(t, role),
        link: `${identity.identityUrl}/invitations/${token}`,
      }),
    });
  }

  async function invite(c: Context, email: string, role: Role) {
    const { session, org } = await adminOrg(c);
    const created = await createInvitation(db, { org, email, role, invitedBy: session.userId });
    await mailLink(c, created.invitation.email, org.name, role, created.token, session.view.user.name);
    return created.invitation;
  }

  async function resend(c: Context, id: string) {
    const { session, org } = await adminOrg(c);
    const renewed = await renewInvitation(db, org.id, id);
    const { email, role } = renewed.invitation;
    await mailLink(c, email, org.name, role, renewed.token, session.view.user.name);
    return renewed.invitation;
  }

  async function accept(c: Context, token: string) {
    const session = await identity.requireSession(c);
    const user = await findUserById(db, session.userId);
    if (!user) throw errors.user_not_found();
    const joined = await acceptInvitation(db, token, user);
    identity.sessions.forgetUser(user.id);
    setCookie(
      c,
      ORG_COOKIE,
      joined.orgId,
      sharedCookieOptions(identity.sharedDomain, identity.config.sessionLifetimeSeconds),
    );
    return joined;
  }

  app.openapi(inviteRoute, async (c) => {
    const { email, role } = c.req.valid('json');
    return c.json({ invitation: await invite(c, email, role) }, 201);
  });
  app.openapi(listRoute, async (c) => {
    const { org } = await adminOrg(c);
    return c.json({ org_id: org.id, invitations: await pendingInvitations(db, org.id) }, 200);
  });
  app.openapi(resendRoute, async (c) =>
    c.json({ invitation: await resend(c, c.req.valid('param').id) }, 200),
  );
  app.openapi(revokeRoute, async (c) => {
    const { org } = await adminOrg(c);
    await revokeInvitation(db, org.id, c.req.valid('param').id);
    return c.json({ ok: true as const }, 200);
  });
  app.openapi(acceptRoute, async (c) => {
    const joined = await accept(c, c.req.valid('json').token);
    return c.json({ ok: true as const, org_id: joined.orgId, role: joined.role }, 200);
  });

  // The account page's forms: the same actions, answered with a redirect back to the page, or with the
  // page and the error next to the invitations form.
  const backToAccount = (c: Context, notice: string) =>
    c.redirect(`/account?notice=${notice}#invitations-title`, 303);
  const showProblem = (c: Context, values?: Record<string, string>) => (error: FormError) =>
    accountPage(identity, c, { section: 'invitations', ...error, values }, error.status);
  app.post('/account/invitations', async (c) => {
    const form = await readForm(c);
    const typed = {
      email: (form.email ?? '').trim().slice(0, 254),
      role: isRole(form.role) ? form.role : 'member',
    };
    const problem = showProblem(c, typed);
    const email = z.email().max(254).safeParse(typed.email);
    if (!email.success || !isRole(form.role))
      return problem({
        code: 'invitation_invalid',
        message: 'Give a valid e-mail address and role to invite someone.',
        status: 400,
      });
    const role = form.role;
    return withFormErrors(
      c,
      async () => {
        await invite(c, email.data, role);
        return backToAccount(c, 'invitation_sent');
      },
      problem,
    );
  });
  app.post('/account/invitations/:id/resend', (c) =>
    withFormErrors(
      c,
      async () => {
        await resend(c, c.req.param('id'));
        return backToAccount(c, 'invitation_sent');
      },
      showProblem(c),
    ),
  );
  app.post('/account/invitations/:id/revoke', (c) =>
    withFormErrors(
      c,
      async () => {
        const { org } = await adminOrg(c);
        await revokeInvitation(db, org.id, c.req.param('id'));
        return backToAccount(c, 'invitation_revoked');
      },
      showProblem(c),
    ),
  );

  const invalidLink = (c: Context) =>
    sendMessage(
      identity,
      c,
      {
        title: 'invitationInvalid.title',
        message: 'error.invitation_not_found',
        link: { href: '/account', text: 'link.account' },
      },
      404,
    );
  const noReferrer = { 'Referrer-Policy': 'no-referrer' };

  /** The join page of a live invitation, or null. */
  async function invitationView(c: Context, token: string): Promise<InvitationView | null> {
    const opened = await openInvitation(db, token);
    if (!opened) return null;
    const session = await identity.currentSession(c);
    return {
      token,
      orgName: opened.org.name,
      role: opened.invitation.role,
      email: opened.invitation.email,
      signedInAs: session?.view.user.email ?? null,
    };
  }

  app.get('/invitations/:token', async (c) => {
    const view = await invitationView(c, c.req.param('token'));
    if (!view) return invalidLink(c);
    return sendPage(identity, c, <InvitationPage view={view} assets={identity.assets} />, 200, noReferrer);
  });
  app.post('/invitations/:token', async (c) => {
    const token = c.req.param('token');
    if (!(await identity.currentSession(c))) return c.redirect(`/login?redirect=/invitations/${token}`, 303);
    const view = await invitationView(c, token);
    if (!view) return invalidLink(c);
    return withFormErrors(
      c,
      async () => {
        await accept(c, token);
        return c.redirect('/account?notice=joined', 303);
      },
      (error) =>
        sendPage(
          identity,
          c,
          <InvitationPage
            view={{ ...view, error: errorText(translator(messages, requestLocale(c)), error) }}
            assets={identity.assets}
          />,
          error.status,
          noReferrer,
        ),
    );
  });
}
