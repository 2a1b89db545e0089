/**
 * @module credentials/routes
 * | POST /api/did/issue   | session, or bearer service token with `did:issue` | `{type*, org_id, claims}` | credential |
 * | POST /api/did/verify  | none, any origin | `{token*|sdjwt|credential, nonce, aud}` | verification result (200 `valid:false` + `reason` when invalid; 400 when missing) |
 * | POST /api/did/revoke  | session of the owner (org credentials: an admin of the org) | `{id*}` | `{ok:true}` |
 * | GET  /vc/{type}       | none, any origin | | type metadata |
 * | GET  /status/{listId} | none, any origin | | `statuslist+jwt` (IETF Token Status List) |
 */
import type { Actor } from '@xv/platform';
import { type App, createRoute, publicCors, z } from '@xv/platform/http';
import type { Context } from 'hono';
import { errorBody, jsonBody, jsonResponse, okBody } from '../schemas.js';
import type { CredentialsContext } from './context.js';
import type { IssuedCredential } from './credentials.js';
import { credentialErrors } from './errors.js';
import { checkAttestationClaims, credentialSubject } from './subjects.js';
import { type CredentialType, isCredentialType, typeMetadata } from './types.js';

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
    400: jsonResponse('Bad request', errorBody),
    401: jsonResponse('No session or token', errorBody),
    403: jsonResponse('Not allowed', errorBody),
    404: jsonResponse('No such organization', errorBody),
  },
});

const verifyRoute = createRoute({
  method: 'post',
  path: '/api/did/verify',
  summary: 'Verify an SD-JWT credential of this issuer (and its key binding when a nonce is given)',
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
    400: jsonResponse('No credential was given', errorBody),
  },
});

const revokeRoute = createRoute({
  method: 'post',
  path: '/api/did/revoke',
  summary: 'Revoke a credential (published through the status list)',
  request: { body: jsonBody(z.object({ id: z.string().min(1).max(64) })) },
  responses: {
    200: jsonResponse('Revoked', okBody),
    401: jsonResponse('No session', errorBody),
    403: jsonResponse('Not the owner', errorBody),
    404: jsonResponse('No such credential', errorBody),
  },
});

const typeMetadataRoute = createRoute({
  method: 'get',
  path: '/vc/{type}',
  summary: 'Credential type metadata',
  request: { params: z.object({ type: z.string().max(64) }) },
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
    404: jsonResponse('No such type', errorBody),
  },
});

export interface IssueInput {
  type: string;
  org_id?: string | undefined;
  claims?: Record<string, unknown> | undefined;
}

/** Issues for the caller (a person or a service client) after checking they may; the one path of every issuance. */
export async function issueFor(
  ctx: CredentialsContext,
  c: Context,
  input: IssueInput,
): Promise<IssuedCredential> {
  if (!isCredentialType(input.type)) throw credentialErrors.unknown_type();
  const type: CredentialType = input.type;
  if (input.claims !== undefined && type !== 'OrganizationAttestation')
    throw credentialErrors.claims_not_allowed();
  if (type === 'OrganizationAttestation' && !input.org_id) throw credentialErrors.org_required();
  const claims = input.claims ? checkAttestationClaims(input.claims) : undefined;
  const actor: Actor = await ctx.identity.guard.authorize(c, { scope: 'did:issue', orgId: input.org_id });
  let userId: string | null = null;
  let orgId: string | null = input.org_id ?? null;
  if (actor.kind === 'service') {
    if (type !== 'OrganizationAttestation') throw credentialErrors.service_client_not_allowed();
  } else {
    userId = actor.session.user.id;
    if (type === 'MembershipCredential') orgId = actor.orgId ?? null;
    if (type === 'MembershipCredential' && !orgId) throw credentialErrors.org_required();
    if (type === 'OrganizationAttestation' && actor.membership?.role !== 'admin')
      throw credentialErrors.admin_required();
  }
  const subject = await credentialSubject(ctx.identity.db, ctx.baseUrl, {
    realmId: actor.realmId,
    type,
    userId: type === 'OrganizationAttestation' ? null : userId,
    orgId: type === 'IdentityCredential' ? null : orgId,
    claims,
  });
  return ctx.credentials.issue({
    realmId: actor.realmId,
    type,
    ...subject,
    issuedBy: actor.kind === 'service' ? actor.client.id : actor.session.user.id,
    channel: actor.kind === 'service' ? 'service' : 'api',
  });
}

export function registerCredentialApiRoutes(app: App, ctx: CredentialsContext) {
  const { identity } = ctx;
  app.use('/api/did/verify', publicCors());
  app.use('/vc/*', publicCors());
  app.use('/status/*', publicCors());

  app.openapi(issueRoute, async (c) => c.json(await issueFor(ctx, c, c.req.valid('json')), 200));

  app.openapi(verifyRoute, async (c) => {
    const body = c.req.valid('json');
    const token = body.token || body.sdjwt || body.credential;
    if (!token) throw credentialErrors.credential_required();
    const result = await ctx.verifier.verify(token, { nonce: body.nonce, audience: body.aud });
    c.header('Cache-Control', 'no-store');
    return c.json(result, 200);
  });

  app.openapi(revokeRoute, async (c) => {
    const session = await identity.requireSession(c);
    const adminOrgIds = session.view.memberships.filter((m) => m.role === 'admin').map((m) => m.org_id);
    const outcome = await ctx.credentials.revoke(session.realmId, c.req.valid('json').id, {
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
    return c.json(typeMetadata(ctx.baseUrl, type), 200);
  });

  app.get('/status/:listId', async (c) => {
    const jwt = await ctx.statusLists.statusListToken(c.req.param('listId'));
    if (!jwt) throw credentialErrors.status_list_not_found();
    c.header('Content-Type', 'application/statuslist+jwt');
    c.header('Cache-Control', 'public, max-age=60');
    return c.body(jwt);
  });
}
