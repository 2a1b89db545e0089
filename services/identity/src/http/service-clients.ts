/**
 * @module http/service-clients
 * | POST   /api/service-clients     | session, admin of the organization | `{name, scopes, org_id}` | 201 `{id, token, …}` (token shown once) |
 * | GET    /api/service-clients     | session, admin                     | query `org_id` (default: active) | `{clients}` |
 * | DELETE /api/service-clients/:id | session, admin of its organization |                          | `{ok:true}` |
 * | GET    /api/service-clients/me  | bearer service token               |                          | `{id, name, realm_id, org_id, scopes}` or 401 |
 * `POST /account/service-clients/:id/revoke` is the account page's form for a revocation without script.
 */
import { guardErrors, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  bearerToken,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  okBody,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { errors } from '../errors.js';
import {
  createServiceClient,
  findServiceClient,
  KNOWN_SCOPES,
  listServiceClients,
  revokeServiceClient,
  SCOPE_PATTERN,
  verifyServiceToken,
} from '../service-clients/repository.js';
import { administeredOrg } from './administered.js';
import type { IdentityContext } from './context.js';
import { showAccountProblem } from './pages/routes.js';
import { withFormErrors } from './respond.js';

const clientInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    realm_id: z.string(),
    org_id: z.string().nullable(),
    scopes: z.array(z.string()),
  })
  .openapi('ServiceClient');

const createRouteDef = createRoute({
  method: 'post',
  path: '/api/service-clients',
  summary: 'Create a service client; its token is shown once',
  security: access.session,
  request: {
    body: jsonBody(
      z.object({
        name: z.string().trim().min(1).max(100),
        scopes: z.array(z.string().max(64).regex(SCOPE_PATTERN)).min(1).max(20),
        org_id: z.string().max(64).nullable().optional(),
      }),
      { example: { name: 'Nightly report job', scopes: ['seal:issue'], org_id: 'org_acme' } },
    ),
  },
  responses: {
    201: jsonResponse('Created', clientInfo.extend({ token: z.string() }), {
      id: 'svc_5t8w2q',
      name: 'Nightly report job',
      realm_id: 'default',
      org_id: 'org_acme',
      scopes: ['seal:issue'],
      token: 'xvc_N4q8LwP2zK7rT1mY6bV3cX9dF0gH5jS',
    }),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    400: jsonErrorResponse(
      'A scope XV does not know (unknown_scope, with the known `scopes`)',
      errors.unknown_scope,
    ),
    403: jsonErrorResponse(
      'Not an administrator of the organization',
      guardErrors.not_a_member,
      errors.no_active_organization,
      errors.admin_required,
      errors.realm_wide_forbidden,
    ),
  },
});

const listRoute = createRoute({
  method: 'get',
  path: '/api/service-clients',
  summary: 'Live service clients of an organization',
  security: access.session,
  request: { query: z.object({ org_id: z.string().max(64).optional().openapi({ example: 'org_acme' }) }) },
  responses: {
    200: jsonResponse(
      'Clients',
      z.object({
        clients: z.array(clientInfo.extend({ created_at: z.number(), last_used_at: z.number().nullable() })),
      }),
    ),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse(
      'Not an administrator',
      guardErrors.not_a_member,
      errors.no_active_organization,
      errors.admin_required,
    ),
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/api/service-clients/{id}',
  summary: 'Revoke a service client',
  security: access.session,
  request: { params: z.object({ id: z.string().max(64).openapi({ example: 'svc_5t8w2q' }) }) },
  responses: {
    200: jsonResponse('Revoked', okBody),
    401: jsonErrorResponse('Not signed in', [platformErrors.unauthenticated, 'Sign in first.']),
    403: jsonErrorResponse('Not an administrator', guardErrors.not_a_member, errors.admin_required),
    404: jsonErrorResponse('No such client', errors.service_client_not_found),
  },
});

const meRoute = createRoute({
  method: 'get',
  path: '/api/service-clients/me',
  summary: 'The service client of the bearer token (how other services check a token)',
  security: [{ serviceToken: [] }],
  responses: {
    200: jsonResponse('The client', clientInfo),
    401: jsonErrorResponse('No valid token', guardErrors.invalid_token),
  },
});

export function registerServiceClientRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  // Registered before `/{id}` routes so that `me` is never taken for an id.
  app.openapi(meRoute, async (c) => {
    const token = bearerToken(c);
    const client = token ? await verifyServiceToken(db, token) : null;
    if (!client) throw guardErrors.invalid_token();
    c.header('Cache-Control', 'no-store');
    return c.json(client, 200);
  });

  app.openapi(createRouteDef, async (c) => {
    const session = await identity.requireSession(c);
    const body = c.req.valid('json');
    if (body.org_id === null) throw errors.realm_wide_forbidden();
    const unknown = body.scopes.filter((scope) => !KNOWN_SCOPES.includes(scope));
    if (unknown.length > 0)
      throw errors.unknown_scope(`Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}.`, {
        scopes: KNOWN_SCOPES,
      });
    const orgId = administeredOrg(c, session, body.org_id, 'service-clients:manage');
    const { token, client } = await createServiceClient(db, {
      realmId: session.realmId,
      orgId,
      name: body.name,
      scopes: body.scopes,
      createdBy: session.userId,
    });
    return c.json({ ...client, token }, 201);
  });

  app.openapi(listRoute, async (c) => {
    const session = await identity.requireSession(c);
    const orgId = administeredOrg(c, session, c.req.valid('query').org_id, 'service-clients:manage');
    return c.json({ clients: await listServiceClients(db, session.realmId, orgId) }, 200);
  });

  /** Revokes a service client of an organization the caller administers. */
  async function revoke(c: Context, id: string) {
    const session = await identity.requireSession(c);
    const client = await findServiceClient(db, session.realmId, id);
    if (!client?.org_id) throw errors.service_client_not_found();
    administeredOrg(c, session, client.org_id, 'service-clients:manage');
    await revokeServiceClient(db, client.id);
    await identity.revocations.read();
  }

  app.openapi(revokeRoute, async (c) => {
    await revoke(c, c.req.valid('param').id);
    return c.json({ ok: true as const }, 200);
  });

  // The account page's form without script.
  app.post('/account/service-clients/:id/revoke', (c) =>
    withFormErrors(
      c,
      async () => {
        await revoke(c, c.req.param('id'));
        return c.redirect('/account?notice=client_revoked#clients-title', 303);
      },
      showAccountProblem(identity, c, 'clients'),
    ),
  );
}
