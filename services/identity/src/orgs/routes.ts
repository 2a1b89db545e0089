/**
 * @module orgs/routes
 * | GET  /api/org/resolve | none, any origin | query `org_id` or `slug` (+ `realm`) | public organization record |
 * | POST /api/org/switch  | session          | `{org_id}`                            | `{ok, org_id}`, sets `xv_org` |
 * | GET  /api/org/members | session          | (active organization)                 | `{org_id, members}` |
 * | POST /api/org/members | session, admin of the active organization | `{email, role}` | `{ok, org_id, user_id, role}` |
 * | PATCH  /api/org/members/:userId | session, admin | `{role}` | `{ok, org_id, user_id, role}` |
 * | DELETE /api/org/members/:userId | session, admin | none | `{ok, org_id, user_id}` |
 * | POST /api/org/settings | session, `org:manage` in the active organization | `{public_assistant?, require_2fa?}` | `{ok, org_id, public_assistant, require_2fa}` |
 *
 * Changing or ending a membership revokes the membership credentials it vouched for,
 * and the last administrator can be neither demoted nor removed.
 */

import { ORG_COOKIE } from '@xv/platform';
import {
  type App,
  activeMembership,
  createRoute,
  publicCors,
  sharedCookieOptions,
  sharedDomainCors,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import { organizationDid, serviceDid } from '../accounts/dids.js';
import {
  addMembership,
  changeMembership,
  DEFAULT_REALM,
  findOrganization,
  findOrganizationBySlug,
  findUserByEmail,
  membersOf,
  type Organization,
  setPublicAssistant,
  setRequire2fa,
} from '../accounts/repository.js';
import { ROLES, type Role } from '../accounts/roles.js';
import type { IdentityContext } from '../context.js';
import { errors } from '../errors.js';
import { errorBody, jsonBody, jsonResponse } from '../schemas.js';
import type { SessionRecord } from '../sessions/store.js';

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

export function publicRecord(identityUrl: string, org: Organization) {
  return {
    org_id: org.id,
    name: org.name,
    slug: org.slug,
    did: serviceDid(identityUrl),
    org_did: organizationDid(identityUrl, org.id),
    verified: org.verified === 1,
    verified_at: org.verified_at === null ? null : new Date(org.verified_at).toISOString(),
    realm: org.realm_id,
    public_assistant: org.public_assistant === 1,
  };
}

const resolveRoute = createRoute({
  method: 'get',
  path: '/api/org/resolve',
  summary: 'Public record of an organization',
  request: {
    query: z.object({
      org_id: z.string().max(64).optional(),
      slug: z.string().max(64).optional(),
      realm: z.string().max(64).optional(),
    }),
  },
  responses: {
    200: jsonResponse('The organization', publicOrganization),
    400: jsonResponse('Neither or both of org_id and slug', errorBody),
    404: jsonResponse('No such organization', errorBody),
  },
});

const switchRoute = createRoute({
  method: 'post',
  path: '/api/org/switch',
  summary: 'Choose the active organization (cookie xv_org)',
  request: { body: jsonBody(z.object({ org_id: z.string().min(1).max(64) })) },
  responses: {
    200: jsonResponse('Switched', z.object({ ok: z.literal(true), org_id: z.string() })),
    401: jsonResponse('Not signed in', errorBody),
    403: jsonResponse('Not a member', errorBody),
  },
});

const member = z.object({ user_id: z.string(), email: z.string(), name: z.string(), role: z.string() });

const listMembersRoute = createRoute({
  method: 'get',
  path: '/api/org/members',
  summary: 'Members of the active organization',
  responses: {
    200: jsonResponse('Members', z.object({ org_id: z.string(), members: z.array(member) })),
    401: jsonResponse('Not signed in', errorBody),
    403: jsonResponse('No organization', errorBody),
  },
});

const addMemberRoute = createRoute({
  method: 'post',
  path: '/api/org/members',
  summary: 'Add an existing user of the realm to the active organization',
  request: { body: jsonBody(z.object({ email: z.email().max(254), role: z.enum(ROLES) })) },
  responses: {
    201: jsonResponse(
      'Added',
      z.object({ ok: z.literal(true), org_id: z.string(), user_id: z.string(), role: z.string() }),
    ),
    401: jsonResponse('Not signed in', errorBody),
    403: jsonResponse('Not an administrator', errorBody),
    404: jsonResponse('No such user', errorBody),
    409: jsonResponse('Already a member', errorBody),
  },
});

const memberPath = z.object({ userId: z.string().min(1).max(64) });
const membershipResult = z.object({
  ok: z.literal(true),
  org_id: z.string(),
  user_id: z.string(),
  role: z.string().nullable(),
});
const changeErrors = {
  401: jsonResponse('Not signed in', errorBody),
  403: jsonResponse('Not an administrator', errorBody),
  404: jsonResponse('Not a member', errorBody),
  409: jsonResponse('It would leave the organization without an administrator', errorBody),
};

const changeRoleRoute = createRoute({
  method: 'patch',
  path: '/api/org/members/{userId}',
  summary: "Change a member's role in the active organization",
  request: { params: memberPath, body: jsonBody(z.object({ role: z.enum(ROLES) })) },
  responses: { 200: jsonResponse('Changed', membershipResult), ...changeErrors },
});

const removeMemberRoute = createRoute({
  method: 'delete',
  path: '/api/org/members/{userId}',
  summary: 'Remove a member from the active organization',
  request: { params: memberPath },
  responses: { 200: jsonResponse('Removed', membershipResult), ...changeErrors },
});

const settingsRoute = createRoute({
  method: 'post',
  path: '/api/org/settings',
  summary: "Change the active organization's settings",
  request: {
    body: jsonBody(
      z
        .object({ public_assistant: z.boolean().optional(), require_2fa: z.boolean().optional() })
        .refine((body) => body.public_assistant !== undefined || body.require_2fa !== undefined, {
          message: 'Give public_assistant, require_2fa or both.',
        }),
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
    401: jsonResponse('Not signed in', errorBody),
    403: jsonResponse('Not an administrator', errorBody),
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
    const { org_id, slug, realm } = c.req.valid('query');
    if ((org_id === undefined) === (slug === undefined)) throw errors.org_query_required();
    // `!== undefined`: an empty `org_id=` is an id (found nowhere), not a lookup by an absent slug.
    const org =
      org_id !== undefined
        ? await findOrganization(db, org_id)
        : await findOrganizationBySlug(db, realm ?? DEFAULT_REALM, slug!);
    if (!org || (realm && org.realm_id !== realm)) throw errors.org_not_found();
    return c.json(publicRecord(identity.identityUrl, org), 200);
  });

  app.openapi(switchRoute, async (c) => {
    const session = await identity.requireSession(c);
    const { org_id } = c.req.valid('json');
    if (!session.view.memberships.some((m) => m.org_id === org_id)) throw errors.not_a_member();
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
    const body = c.req.valid('json');
    if (body.public_assistant !== undefined) await setPublicAssistant(db, org_id, body.public_assistant);
    if (body.require_2fa !== undefined) await setRequire2fa(db, org_id, body.require_2fa);
    const org = await findOrganization(db, org_id);
    if (!org) throw errors.org_not_found();
    return c.json(
      {
        ok: true as const,
        org_id,
        public_assistant: org.public_assistant === 1,
        require_2fa: org.require_2fa === 1,
      },
      200,
    );
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
    const org = await findOrganization(db, membership.org_id);
    const user = await findUserByEmail(db, session.realmId, email);
    if (!org || !user) throw errors.user_not_found();
    if (!(await addMembership(db, org, user.id, role))) throw errors.already_member();
    identity.sessions.forgetUser(user.id);
    return c.json({ ok: true as const, org_id: org.id, user_id: user.id, role }, 201);
  });

  /** Changes (or with `role` null ends) a membership of the admin's active organization. */
  async function change(c: Context, userId: string, role: Role | null) {
    const session = await identity.requireSession(c);
    const { org_id } = activeOrganization(c, session, 'members:manage');
    const outcome = await changeMembership(identity.database, org_id, userId, role);
    if (outcome === 'not_found') throw errors.member_not_found();
    if (outcome === 'last_admin') throw errors.last_admin();
    await identity.membershipChanged({ orgId: org_id, userId, role, byUserId: session.userId });
    return { ok: true as const, org_id, user_id: userId, role };
  }

  app.openapi(changeRoleRoute, async (c) =>
    c.json(await change(c, c.req.valid('param').userId, c.req.valid('json').role), 200),
  );

  app.openapi(removeMemberRoute, async (c) =>
    c.json(await change(c, c.req.valid('param').userId, null), 200),
  );
}
