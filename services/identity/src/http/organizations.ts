/**
 * @module http/organizations
 * | GET  /api/org/resolve | none, any origin | query `org_id` or `slug` (+ `realm`) | public organization record |
 * | POST /api/org/switch  | session          | `{org_id}`                            | `{ok, org_id}`, sets `xv_org` |
 * | GET  /api/org/members | session          | (active organization)                 | `{org_id, members}` |
 * | POST /api/org/members | session, admin of the active organization | `{email, role}` | `{ok, org_id, user_id, role}` |
 * | PATCH  /api/org/members/:userId | session, admin | `{role}` | `{ok, org_id, user_id, role}` |
 * | DELETE /api/org/members/:userId | session, admin | none | `{ok, org_id, user_id}` |
 * | POST /api/org/settings | session, `org:manage` in the active organization | `{public_assistant?, require_2fa?}` | `{ok, org_id, public_assistant, require_2fa}` |
 *
 * `POST /account/members/:userId/remove` is the account page's form for a removal without script.
 * Changing or ending a membership revokes the membership credentials it vouched for,
 * and the last administrator can be neither demoted nor removed.
 */

import { guardErrors, ORG_COOKIE, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  activeMembership,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  publicCors,
  sharedCookieOptions,
  sharedDomainCors,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import {
  addMemberByEmail,
  changeMember,
  publicRecord,
  resolveOrganization,
  updateOrganizationSettings,
} from '../accounts/organizations.js';
import { membersOf } from '../accounts/repository.js';
import { ROLES, type Role } from '../accounts/roles.js';
import { errors } from '../errors.js';
import type { SessionRecord } from '../sessions/store.js';
import type { IdentityContext } from './context.js';
import { showAccountProblem } from './pages/routes.js';
import { withFormErrors } from './respond.js';

const publicOrganization = z
  .object({
    org_id: z.string(),
    name: z.string(),
    slug: z.string(),
    did: z.string(),
    org_did: z.string(),
    verified: z.boolean(),
    verified_at: z.string().nullable(),
    realm: z.string(),
    /** Anonymous visitors may chat with the organization's public assistant (the agent). */
    public_assistant: z.boolean(),
  })
  .openapi('PublicOrganization');

const resolveRoute = createRoute({
  method: 'get',
  path: '/api/org/resolve',
  summary: 'Public record of an organization',
  security: access.public,
  request: {
    query: z.object({
      org_id: z.string().max(64).optional().openapi({ example: 'org_acme' }),
      slug: z.string().max(64).optional().openapi({ example: 'acme' }),
      realm: z.string().max(64).optional(),
    }),
  },
  responses: {
    200: jsonResponse('The organization', publicOrganization),
    400: jsonErrorResponse('Neither or both of org_id and slug', errors.org_query_required),
    404: jsonErrorResponse('No such organization', errors.org_not_found),
  },
});

const switchRoute = createRoute({
  method: 'post',
  path: '/api/org/switch',
  summary: 'Choose the active organization (cookie xv_org)',
  security: access.session,
  request: {
    body: jsonBody(z.object({ org_id: z.string().min(1).max(64) }), { example: { org_id: 'org_acme' } }),
  },
  responses: {
    200: jsonResponse('Switched', z.object({ ok: z.literal(true), org_id: z.string() })),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('Not a member', guardErrors.not_a_member),
  },
});

const member = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role: z.string() });

const listMembersRoute = createRoute({
  method: 'get',
  path: '/api/org/members',
  summary: 'Members of the active organization',
  security: access.session,
  responses: {
    200: jsonResponse('Members', z.object({ org_id: z.string(), members: z.array(member) })),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('No organization', errors.no_active_organization),
  },
});

const addMemberRoute = createRoute({
  method: 'post',
  path: '/api/org/members',
  summary: 'Add an existing user of the realm to the active organization',
  security: access.session,
  request: {
    body: jsonBody(z.object({ email: z.email().max(254), role: z.enum(ROLES) }), {
      example: { email: 'grace@acme.example', role: 'member' },
    }),
  },
  responses: {
    201: jsonResponse(
      'Added',
      z.object({ ok: z.literal(true), org_id: z.string(), user_id: z.string(), role: z.string() }),
    ),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('Not an administrator', errors.no_active_organization, errors.admin_required),
    404: jsonErrorResponse('No such user', errors.user_not_found),
    409: jsonErrorResponse('Already a member', errors.already_member),
  },
});

const memberPath = z.object({ userId: z.string().min(1).max(64).openapi({ example: 'usr_9k2m4p' }) });
const membershipResult = z.object({
  ok: z.literal(true),
  org_id: z.string(),
  user_id: z.string(),
  role: z.string().nullable(),
});
const changeErrors = {
  401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
  403: jsonErrorResponse('Not an administrator', errors.no_active_organization, errors.admin_required),
  404: jsonErrorResponse('Not a member', errors.member_not_found),
  409: jsonErrorResponse('It would leave the organization without an administrator', errors.last_admin),
};

const changeRoleRoute = createRoute({
  method: 'patch',
  path: '/api/org/members/{userId}',
  summary: "Change a member's role in the active organization",
  security: access.session,
  request: {
    params: memberPath,
    body: jsonBody(z.object({ role: z.enum(ROLES) }), { example: { role: 'admin' } }),
  },
  responses: { 200: jsonResponse('Changed', membershipResult), ...changeErrors },
});

const removeMemberRoute = createRoute({
  method: 'delete',
  path: '/api/org/members/{userId}',
  summary: 'Remove a member from the active organization',
  security: access.session,
  request: { params: memberPath },
  responses: { 200: jsonResponse('Removed', membershipResult), ...changeErrors },
});

const settingsRoute = createRoute({
  method: 'post',
  path: '/api/org/settings',
  summary: "Change the active organization's settings",
  security: access.session,
  request: {
    body: jsonBody(
      z
        .object({ public_assistant: z.boolean().optional(), require_2fa: z.boolean().optional() })
        .refine((body) => body.public_assistant !== undefined || body.require_2fa !== undefined, {
          message: 'Give public_assistant, require_2fa or both.',
        }),
      { example: { public_assistant: true, require_2fa: true } },
    ),
  },
  responses: {
    200: jsonResponse(
      'Saved',
      z.object({
        ok: z.literal(true),
        org_id: z.string(),
        public_assistant: z.boolean(),
        /** Members may not remove their last second factor. */
        require_2fa: z.boolean(),
      }),
    ),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('Not an administrator', errors.no_active_organization, errors.admin_required),
  },
});

/** The active membership of the signed-in user, checked to hold `permission` when one is given. */
export function activeOrganization(c: Context, session: SessionRecord, permission?: string) {
  const membership = activeMembership(session.view, c);
  if (!membership) throw errors.no_active_organization();
  if (permission && !membership.permissions.includes(permission)) throw errors.admin_required();
  return membership;
}

export function registerOrganizationRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;
  app.use('/api/org/resolve', publicCors());
  app.use('/api/org/switch', sharedDomainCors(identity.sharedDomain));
  app.use('/api/org/settings', sharedDomainCors(identity.sharedDomain));

  app.openapi(resolveRoute, async (c) => {
    const org = await resolveOrganization(db, c.req.valid('query'));
    return c.json(publicRecord(identity.identityUrl, org), 200);
  });

  app.openapi(switchRoute, async (c) => {
    const session = await identity.requireSession(c);
    const { org_id } = c.req.valid('json');
    if (!session.view.memberships.some((m) => m.org_id === org_id)) throw guardErrors.not_a_member();
    setCookie(
      c,
      ORG_COOKIE,
      org_id,
      sharedCookieOptions(identity.sharedDomain, identity.config.sessionLifetimeSeconds),
    );
    return c.json({ ok: true as const, org_id }, 200);
  });

  app.openapi(settingsRoute, async (c) => {
    const session = await identity.requireSession(c);
    const { org_id } = activeOrganization(c, session, 'org:manage');
    const saved = await updateOrganizationSettings(db, org_id, c.req.valid('json'));
    return c.json({ ok: true as const, org_id, ...saved }, 200);
  });

  app.openapi(listMembersRoute, async (c) => {
    const session = await identity.requireSession(c);
    const membership = activeOrganization(c, session);
    return c.json({ org_id: membership.org_id, members: await membersOf(db, membership.org_id) }, 200);
  });

  app.openapi(addMemberRoute, async (c) => {
    const session = await identity.requireSession(c);
    const membership = activeOrganization(c, session, 'members:manage');
    const { email, role } = c.req.valid('json');
    const orgId = membership.org_id;
    const userId = await addMemberByEmail(db, { orgId, realmId: session.realmId, email, role });
    identity.sessions.forgetUser(userId);
    return c.json({ ok: true as const, org_id: orgId, user_id: userId, role }, 201);
  });

  /** Changes (or with `role` null ends) a membership of the admin's active organization. */
  async function change(c: Context, userId: string, role: Role | null) {
    const session = await identity.requireSession(c);
    const { org_id } = activeOrganization(c, session, 'members:manage');
    await changeMember(identity.database, org_id, userId, role);
    await identity.membershipChanged({ orgId: org_id, userId, role, byUserId: session.userId });
    return { ok: true as const, org_id, user_id: userId, role };
  }

  app.openapi(changeRoleRoute, async (c) =>
    c.json(await change(c, c.req.valid('param').userId, c.req.valid('json').role), 200),
  );

  app.openapi(removeMemberRoute, async (c) =>
    c.json(await change(c, c.req.valid('param').userId, null), 200),
  );

  // The account page's form without script.
  app.post('/account/members/:userId/remove', (c) =>
    withFormErrors(
      c,
      async () => {
        await change(c, c.req.param('userId'), null);
        return c.redirect('/account?notice=member_removed#members-title', 303);
      },
      showAccountProblem(identity, c, 'members'),
    ),
  );
}
