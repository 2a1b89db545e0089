/**
 * @module http/credentials/api
 * | POST /api/did/issue   | session, or bearer service token with `did:issue` | `{type*, org_id, claims}` | credential |
 * | POST /api/did/verify  | none, any origin | `{token*|sdjwt|credential, nonce, aud}` | verification result (200 `valid:false` + `reason` when invalid; 400 when missing) |
 * | POST /api/did/revoke  | session of the owner (org credentials: an admin of the org) | `{id*}` | `{ok:true}` |
 * | GET  /vc/{type}       | none, any origin | | type metadata |
 * | GET  /status/{listId} | none, any origin | | `statuslist+jwt` (IETF Token Status List) |
 */
import { guardErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  okBody,
  publicCors,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import {
  type Credentials,
  credentialErrors,
  type IssuedCredential,
  type IssueInput,
  isCredentialType,
  typeMetadata,
} from '../../credentials/index.js';
import type { IdentityContext } from '../context.js';

const credentialSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    vct: z.string(),
    issuer: z.string(),
    subject: z.string(),
    claims: z.record(z.string(), z.unknown()),
    sdjwt: z.string(),
    issuedAt: z.string(),
    expiresAt: z.number().int(),
  })
  .openapi('Credential');

const issueRoute = createRoute({
  method: 'post',
  path: '/api/did/issue',
  summary: 'Issue an SD-JWT verifiable credential',
  security: access.sessionOrServiceToken('did:issue'),
  request: {
    body: jsonBody(
      z.object({
        type: z.string().max(64),
        org_id: z.string().max(64).optional(),
        claims: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse('The credential', credentialSchema),
    400: jsonErrorResponse(
      'Bad request',
      credentialErrors.unknown_type,
      credentialErrors.type_required,
      credentialErrors.org_required,
      credentialErrors.claims_not_allowed,
      credentialErrors.invalid_claims,
    ),
    401: jsonErrorResponse('No session or token'),
    403: jsonErrorResponse(
      'Not allowed',
      guardErrors.not_a_member,
      guardErrors.wrong_organization,
      credentialErrors.admin_required,
      credentialErrors.service_client_not_allowed,
    ),
    404: jsonErrorResponse('No such organization', credentialErrors.org_not_found),
  },
});

const verifyRoute = createRoute({
  method: 'post',
  path: '/api/did/verify',
  summary: 'Verify an SD-JWT credential of this issuer (and its key binding when a nonce is given)',
  security: access.public,
  request: {
    body: jsonBody(
      z.object({
        token: z.string().optional(),
        sdjwt: z.string().optional(),
        credential: z.string().optional(),
        nonce: z.string().max(512).optional(),
        aud: z.string().max(2048).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      'The verification result',
      z.union([
        z.object({
          valid: z.literal(true),
          iss: z.string(),
          sub: z.string(),
          vct: z.string(),
          payload: z.record(z.string(), z.unknown()),
          exp: z.number().int(),
          iat: z.number().int(),
        }),
        z.object({ valid: z.literal(false), reason: z.string(), message: z.string() }),
      ]),
    ),
    400: jsonErrorResponse('No credential was given', credentialErrors.credential_required),
  },
});

const revokeRoute = createRoute({
  method: 'post',
  path: '/api/did/revoke',
  summary: 'Revoke a credential (published through the status list)',
  security: access.session,
  request: { body: jsonBody(z.object({ id: z.string().min(1).max(64) })) },
  responses: {
    200: jsonResponse('Revoked', okBody),
    401: jsonErrorResponse('No session'),
    403: jsonErrorResponse('Not the owner', credentialErrors.not_credential_owner),
    404: jsonErrorResponse('No such credential', credentialErrors.credential_not_found),
  },
});

const typeMetadataRoute = createRoute({
  method: 'get',
  path: '/vc/{type}',
  summary: 'Credential type metadata',
  security: access.public,
  request: { params: z.object({ type: z.string().max(64).openapi({ example: 'IdentityCredential' }) }) },
  responses: {
    200: jsonResponse(
      'Type metadata',
      z.object({
        vct: z.string(),
        name: z.string(),
        description: z.string(),
        claims: z.record(z.string(), z.object({ name: z.string(), required: z.boolean().optional() })),
      }),
    ),
    404: jsonErrorResponse('No such type', credentialErrors.unknown_credential_type),
  },
});

/** Issues for the caller of request `c` (a person, or a service client with `did:issue`). */
export function issueFor(
  identity: IdentityContext,
  credentials: Credentials,
  c: Context,
  input: IssueInput,
): Promise<IssuedCredential> {
  return credentials.issue(input, (orgId) => identity.guard.authorize(c, { scope: 'did:issue', orgId }));
}

export function registerCredentialApiRoutes(app: App, identity: IdentityContext, credentials: Credentials) {
  app.use('/api/did/verify', publicCors());
  app.use('/vc/*', publicCors());
  app.use('/status/*', publicCors());

  app.openapi(issueRoute, async (c) =>
    c.json(await issueFor(identity, credentials, c, c.req.valid('json')), 200),
  );

  app.openapi(verifyRoute, async (c) => {
    const body = c.req.valid('json');
    const token = body.token || body.sdjwt || body.credential;
    if (!token) throw credentialErrors.credential_required();
    const result = await credentials.verifier.verify(token, { nonce: body.nonce, audience: body.aud });
    c.header('Cache-Control', 'no-store');
    return c.json(result, 200);
  });

  app.openapi(revokeRoute, async (c) => {
    const session = await identity.requireSession(c);
    const adminOrgIds = session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id);
    const outcome = await credentials.issuer.revoke(session.realmId, c.req.valid('json').id, {
      userId: session.userId,
      adminOrgIds,
    });
    if (outcome === 'not_found') throw credentialErrors.credential_not_found();
    if (outcome === 'forbidden') throw credentialErrors.not_credential_owner();
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(typeMetadataRoute, (c) => {
    const { type } = c.req.valid('param');
    if (!isCredentialType(type)) throw credentialErrors.unknown_credential_type();
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(typeMetadata(credentials.baseUrl, type), 200);
  });

  app.get('/status/:listId', async (c) => {
    const jwt = await credentials.statusLists.statusListToken(c.req.param('listId'));
    if (!jwt) throw credentialErrors.status_list_not_found();
    c.header('Content-Type', 'application/statuslist+jwt');
    c.header('Cache-Control', 'public, max-age=60');
    return c.body(jwt);
  });
}
