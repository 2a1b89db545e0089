import {
  type App,
  access,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  okBody,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import { errors } from '../../errors.js';
import {
  createOidcClient,
  listOidcClients,
  OIDC_SCOPE_NAMES,
  RESOURCE_SCOPES,
  revokeOidcClient,
} from '../../oidc/clients.js';
import { consentsOf, revokeConsent } from '../../oidc/consents.js';
import { issuerPath } from '../../oidc/provider.js';
import { administeredOrg } from '../administered.js';
import type { IdentityContext } from '../context.js';
import { readForm } from '../forms.js';
import { showAccountProblem } from '../pages/routes.js';
import { sendPage, withFormErrors } from '../respond.js';
import { AppRegisteredPage } from './account-card.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const PRIVATE_SCHEME = /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/;

/** An exact redirect URI as RFC 9700 and OAuth 2.1 want them: https, loopback http, or a native app's scheme. */
export function isAcceptableRedirectUri(value: string, kind: 'confidential' | 'public'): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash || value.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname);
  return kind === 'public' && PRIVATE_SCHEME.test(url.protocol);
}

const uri = z.string().min(1).max(2000);
const clientBody = z
  .object({
    client_id: z.string(),
    org_id: z.string(),
    name: z.string(),
    logo_url: z.string().nullable(),
    kind: z.enum(['confidential', 'public']),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    scopes: z.array(z.string()),
    created_at: z.number(),
  })
  .openapi('OidcClient');

const newClient = z.object({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(['confidential', 'public']),
  redirect_uris: z.array(uri).min(1).max(10),
  post_logout_redirect_uris: z.array(uri).max(10).optional(),
  scopes: z
    .array(z.enum([...OIDC_SCOPE_NAMES, ...Object.keys(RESOURCE_SCOPES)] as [string, ...string[]]))
    .max(10)
    .optional(),
  logo_url: z
    .url({ protocol: /^https$/ })
    .max(2000)
    .nullable()
    .optional(),
  org_id: z.string().max(64).optional(),
});

const createClientRoute = createRoute({
  method: 'post',
  path: '/api/oidc/clients',
  summary:
    'Register an app that signs people in with XV (OpenID Connect); a confidential app’s secret is shown once',
  security: access.session,
  request: {
    body: jsonBody(newClient, {
      example: {
        name: 'Lotus Timesheets',
        kind: 'confidential',
        redirect_uris: ['https://timesheets.lotus.example/callback'],
        scopes: ['openid', 'profile', 'email', 'organizations'],
      },
    }),
  },
  responses: {
    201: jsonResponse('Registered', clientBody.extend({ client_secret: z.string().nullable() })),
    400: jsonErrorResponse('A redirect URI that is not acceptable (invalid_redirect_uri)'),
    401: jsonErrorResponse('Not signed in'),
    403: jsonErrorResponse('Not an administrator of the organization'),
  },
});

const listClientsRoute = createRoute({
  method: 'get',
  path: '/api/oidc/clients',
  summary: 'The apps of an organization (default: the active one)',
  security: access.session,
  request: { query: z.object({ org_id: z.string().max(64).optional() }) },
  responses: {
    200: jsonResponse('Apps', z.object({ clients: z.array(clientBody) })),
    401: jsonErrorResponse('Not signed in'),
    403: jsonErrorResponse('Not an administrator'),
  },
});

const deleteClientRoute = createRoute({
  method: 'delete',
  path: '/api/oidc/clients/{client_id}',
  summary: 'Remove an app: its sign-ins and tokens end',
  security: access.session,
  request: {
    params: z.object({ client_id: z.string().max(64) }),
    query: z.object({ org_id: z.string().max(64).optional() }),
  },
  responses: {
    200: jsonResponse('Removed', okBody),
    401: jsonErrorResponse('Not signed in'),
    403: jsonErrorResponse('Not an administrator'),
    404: jsonErrorResponse('No such app in the organization'),
  },
});

const listConsentsRoute = createRoute({
  method: 'get',
  path: '/api/oidc/consents',
  summary: 'The apps you allowed to use your account',
  security: access.session,
  responses: {
    200: jsonResponse(
      'Apps',
      z.object({
        apps: z.array(
          z.object({
            client_id: z.string(),
            name: z.string(),
            logo_url: z.string().nullable(),
            self_registered: z.boolean(),
            scopes: z.array(z.string()),
            created_at: z.number(),
            updated_at: z.number(),
          }),
        ),
      }),
    ),
    401: jsonErrorResponse('Not signed in'),
  },
});

const revokeConsentRoute = createRoute({
  method: 'delete',
  path: '/api/oidc/consents/{client_id}',
  summary: 'Take back what you allowed an app: its tokens for you end',
  security: access.session,
  request: { params: z.object({ client_id: z.string().max(64) }) },
  responses: {
    200: jsonResponse('Taken back', okBody),
    401: jsonErrorResponse('Not signed in'),
    404: jsonErrorResponse('You have not allowed that app'),
  },
});

export function registerOidcApiRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  /** Registers an app for the organization the caller administers. */
  async function register(c: Context, body: z.infer<typeof newClient>) {
    const session = await identity.requireSession(c);
    const orgId = administeredOrg(c, session, body.org_id, 'org:manage');
    const postLogout = body.post_logout_redirect_uris ?? [];
    if (![...body.redirect_uris, ...postLogout].every((value) => isAcceptableRedirectUri(value, body.kind)))
      throw errors.invalid_redirect_uri();
    c.header('Cache-Control', 'no-store');
    const registered = await createOidcClient(db, {
      realmId: session.realmId,
      orgId,
      name: body.name,
      logoUrl: body.logo_url ?? null,
      kind: body.kind,
      redirectUris: body.redirect_uris,
      postLogoutRedirectUris: postLogout,
      scopes: body.scopes ?? ['openid', 'profile', 'email'],
      createdBy: session.userId,
    });
    return { ...registered, issuer: `${identity.identityUrl}${issuerPath(session.realmId)}` };
  }

  app.openapi(createClientRoute, async (c) => {
    const { client, clientSecret } = await register(c, c.req.valid('json'));
    return c.json({ ...client, client_secret: clientSecret }, 201);
  });

  // The account page's registration form (a plain form post): the answer shows the secret once.
  app.post('/account/oidc/clients', (c) =>
    withFormErrors(
      c,
      async () => {
        const form = await readForm(c);
        const lines = (value: string | undefined) =>
          (value ?? '')
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter(Boolean);
        const parsed = newClient.safeParse({
          name: form.name,
          kind: form.kind,
          redirect_uris: lines(form.redirect_uris),
          post_logout_redirect_uris: lines(form.post_logout_redirect_uris),
          scopes: [...OIDC_SCOPE_NAMES, ...Object.keys(RESOURCE_SCOPES)].filter(
            (scope) => scope === 'openid' || form[`scope_${scope}`],
          ),
          logo_url: form.logo_url?.trim() || null,
        });
        if (!parsed.success) throw errors.invalid_redirect_uri();
        const { client, clientSecret, issuer } = await register(c, parsed.data);
        return sendPage(
          identity,
          c,
          <AppRegisteredPage
            assets={identity.assets}
            app={client}
            clientSecret={clientSecret}
            issuer={issuer}
          />,
        );
      },
      showAccountProblem(identity, c, 'oidc-apps'),
    ),
  );

  app.post('/account/oidc/clients/:client_id/remove', (c) =>
    withFormErrors(
      c,
      async () => {
        const session = await identity.requireSession(c);
        const orgId = administeredOrg(c, session, undefined, 'org:manage');
        if (!(await revokeOidcClient(db, session.realmId, orgId, c.req.param('client_id'))))
          throw errors.oidc_client_not_found();
        return c.redirect('/account#oidc-apps-title', 303);
      },
      showAccountProblem(identity, c, 'oidc-apps'),
    ),
  );

  app.openapi(listClientsRoute, async (c) => {
    const session = await identity.requireSession(c);
    const orgId = administeredOrg(c, session, c.req.valid('query').org_id, 'org:manage');
    return c.json({ clients: await listOidcClients(db, session.realmId, orgId) }, 200);
  });

  app.openapi(deleteClientRoute, async (c) => {
    const session = await identity.requireSession(c);
    const orgId = administeredOrg(c, session, c.req.valid('query').org_id, 'org:manage');
    if (!(await revokeOidcClient(db, session.realmId, orgId, c.req.valid('param').client_id)))
      throw errors.oidc_client_not_found();
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(listConsentsRoute, async (c) => {
    const session = await identity.requireSession(c);
    return c.json({ apps: await consentsOf(db, session.userId) }, 200);
  });

  app.openapi(revokeConsentRoute, async (c) => {
    const session = await identity.requireSession(c);
    if (!(await revokeConsent(db, session.userId, c.req.valid('param').client_id)))
      throw errors.consent_not_found();
    return c.json({ ok: true as const }, 200);
  });

  // The account page's form without script.
  app.post('/account/oidc/consents/:client_id/revoke', (c) =>
    withFormErrors(
      c,
      async () => {
        const session = await identity.requireSession(c);
        if (!(await revokeConsent(db, session.userId, c.req.param('client_id'))))
          throw errors.consent_not_found();
        return c.redirect('/account#apps-title', 303);
      },
      showAccountProblem(identity, c, 'apps'),
    ),
  );
}
