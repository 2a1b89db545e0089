/**
 * @module oid4vci/routes
 * | POST /api/did/offer                          | session | `{type|types, org_id, pin}` | credential offer |
 * | GET  /.well-known/openid-credential-issuer   | none    | | credential issuer metadata |
 * | GET  /.well-known/oauth-authorization-server | none    | | authorization server metadata |
 * | POST /api/oid4vci/token                      | none    | form or JSON: `grant_type*`, `pre-authorized_code*`, `tx_code` | wallet token response |
 * | POST /api/oid4vci/nonce                      | none, or bearer access token | | `{c_nonce}`, bound to the token when one is shown |
 * | POST /api/oid4vci/credential                 | bearer access token | `{credential_configuration_id*, proof | proofs}` | wallet credential response |
 * The wallet endpoints answer errors as OAuth does: `{error, error_description}`.
 */

import { AppError, consumeOrReject, createRateLimiter, type RateLimiter } from '@xv/platform';
import { type App, activeMembership, clientIp, createRoute, publicCors, z } from '@xv/platform/http';
import type { Context } from 'hono';
import type { CredentialsContext } from '../credentials/context.js';
import { credentialErrors } from '../credentials/errors.js';
import { isJsonObject, type JsonObject } from '../credentials/jws.js';
import { walletSubject } from '../credentials/subjects.js';
import { CREDENTIAL_TYPES, type CredentialType, isCredentialType, vctOf } from '../credentials/types.js';
import { errorBody, jsonBody, jsonResponse } from '../schemas.js';
import type { SessionRecord } from '../sessions/store.js';
import { authorizationServerMetadata, credentialIssuerMetadata } from './metadata.js';
import { invalidRequest, invalidToken, OAuthError } from './oauth-error.js';
import { checkProof } from './proof.js';
import {
  type CredentialOfferResult,
  PRE_AUTHORIZED_GRANT,
  type WalletIssuance,
  type WalletToken,
} from './wallet.js';

const offerRoute = createRoute({
  method: 'post',
  path: '/api/did/offer',
  summary: 'Create an OpenID4VCI credential offer (pre-authorized code, optional PIN) for your wallet',
  request: {
    body: jsonBody(
      z.object({
        type: z.string().max(64).optional(),
        types: z.array(z.string().max(64)).min(1).max(3).optional(),
        org_id: z.string().max(64).optional(),
        pin: z.boolean().optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      'The credential offer',
      z.object({
        offer: z.record(z.string(), z.unknown()),
        offerUri: z.string(),
        txCode: z.string().optional(),
        expiresAt: z.number().int(),
      }),
    ),
    400: jsonResponse('Bad request', errorBody),
    401: jsonResponse('No session', errorBody),
    403: jsonResponse('Not a member or not an admin', errorBody),
  },
});

const NO_STORE = { 'Cache-Control': 'no-store' };

function oauthError(c: Context, error: unknown) {
  if (!(error instanceof OAuthError)) throw error;
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.status === 401) headers['WWW-Authenticate'] = `Bearer error="${error.error}"`;
  return c.json(error.toJSON(), error.status, headers);
}

/** The live wallet access token of the request's `Authorization` header, or undefined. */
async function accessTokenOf(c: Context, wallet: WalletIssuance): Promise<WalletToken | undefined> {
  const match = /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  return match ? wallet.token(match[1]!) : undefined;
}

/** The token request's fields, form-encoded (as OAuth says) or JSON (as some wallets send). */
async function readTokenRequest(c: Context): Promise<Record<string, unknown>> {
  const type = c.req.header('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const body: unknown = await c.req.json();
      if (isJsonObject(body)) return body;
    } else if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      return await c.req.parseBody();
    }
  } catch {
    // fall through
  }
  throw invalidRequest('Send the token request form-encoded (or as a JSON object).');
}

async function readJsonObject(c: Context): Promise<JsonObject> {
  try {
    const body: unknown = await c.req.json();
    if (isJsonObject(body)) return body;
  } catch {
    // fall through
  }
  throw new OAuthError(400, 'invalid_credential_request', 'The credential request must be a JSON object.');
}

/** The one proof JWT of a request: `proof` (OpenID4VCI drafts) or `proofs.jwt` (1.0). */
function proofJwtOf(request: JsonObject): string {
  const { proof, proofs } = request;
  if (proof !== undefined && proofs !== undefined) throw invalidRequest('Give proof or proofs, not both.');
  if (isJsonObject(proof)) {
    if (proof.proof_type !== 'jwt' || typeof proof.jwt !== 'string')
      throw new OAuthError(400, 'invalid_proof', 'Only proofs of proof_type jwt are supported.');
    return proof.jwt;
  }
  if (isJsonObject(proofs)) {
    const jwts = proofs.jwt;
    if (Object.keys(proofs).length !== 1 || !Array.isArray(jwts) || typeof jwts[0] !== 'string')
      throw new OAuthError(400, 'invalid_proof', 'Only proofs of type jwt are supported.');
    if (jwts.length !== 1)
      throw new OAuthError(400, 'invalid_proof', 'Batch issuance is not supported: give exactly one proof.');
    return jwts[0];
  }
  throw new OAuthError(
    400,
    'invalid_proof',
    'The credential request needs a proof of possession of the wallet key.',
  );
}

/** The credential configuration asked for: by id (1.0), or by format and vct (earlier drafts). */
function configurationOf(request: JsonObject, baseUrl: string): CredentialType {
  const id = request.credential_configuration_id;
  if (typeof id === 'string') {
    if (!isCredentialType(id))
      throw new OAuthError(
        400,
        'unknown_credential_configuration',
        'The issuer offers no such credential configuration.',
      );
    return id;
  }
  if ((request.format === 'dc+sd-jwt' || request.format === 'vc+sd-jwt') && typeof request.vct === 'string') {
    const type = CREDENTIAL_TYPES.find((t) => vctOf(baseUrl, t) === request.vct);
    if (type) return type;
    throw new OAuthError(
      400,
      'unknown_credential_configuration',
      'The issuer offers no credential of that vct.',
    );
  }
  throw new OAuthError(400, 'invalid_credential_request', 'Name the credential_configuration_id to issue.');
}

/** Creates a wallet offer for the signed-in person after checking they may hold those credentials. */
export async function offerFor(
  ctx: CredentialsContext,
  c: Context,
  session: SessionRecord,
  input: { types: string[]; orgId?: string | undefined; pin: boolean },
): Promise<CredentialOfferResult> {
  if (input.types.length === 0) throw credentialErrors.type_required();
  if (!input.types.every(isCredentialType)) throw credentialErrors.unknown_type();
  const types = [...new Set(input.types)] as CredentialType[];
  let orgId: string | null = null;
  if (types.includes('MembershipCredential') || types.includes('OrganizationAttestation')) {
    const membership = input.orgId
      ? session.view.memberships.find((m) => m.org_id === input.orgId)
      : activeMembership(session.view, c);
    if (!membership) throw input.orgId ? credentialErrors.not_a_member() : credentialErrors.org_required();
    if (types.includes('OrganizationAttestation') && membership.role !== 'admin')
      throw credentialErrors.admin_required();
    orgId = membership.org_id;
  }
  return ctx.wallet.createOffer({
    realmId: session.realmId,
    userId: session.userId,
    orgId,
    types,
    pin: input.pin,
  });
}

export async function registerWalletRoutes(app: App, ctx: CredentialsContext) {
  const { identity, wallet, baseUrl } = ctx;
  const nonceLimiter: RateLimiter = await createRateLimiter(identity.service.database, {
    keyPrefix: 'oid4vci-nonce',
    points: 120,
    durationSeconds: 60,
  });
  for (const path of [
    '/.well-known/openid-credential-issuer',
    '/.well-known/oauth-authorization-server',
    '/api/oid4vci/*',
  ])
    app.use(path, publicCors());

  app.openapi(offerRoute, async (c) => {
    const session = await identity.requireSession(c);
    const body = c.req.valid('json');
    const requested = body.types ?? (body.type !== undefined ? [body.type] : []);
    const offer = await offerFor(ctx, c, session, {
      types: requested,
      orgId: body.org_id,
      pin: body.pin === true,
    });
    c.header('Cache-Control', 'no-store');
    return c.json(offer, 200);
  });

  app.get('/.well-known/openid-credential-issuer', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(credentialIssuerMetadata(baseUrl));
  });

  app.get('/.well-known/oauth-authorization-server', (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(authorizationServerMetadata(baseUrl));
  });

  app.post('/api/oid4vci/token', async (c) => {
    try {
      const form = await readTokenRequest(c);
      const grantType = form.grant_type;
      if (typeof grantType !== 'string' || grantType === '') throw invalidRequest('grant_type is missing.');
      if (grantType !== PRE_AUTHORIZED_GRANT)
        throw new OAuthError(400, 'unsupported_grant_type', `Only ${PRE_AUTHORIZED_GRANT} is supported.`);
      const code = form['pre-authorized_code'];
      if (typeof code !== 'string' || code === '' || code.length > 512)
        throw invalidRequest('pre-authorized_code is missing.');
      const txCode = form.tx_code ?? form.user_pin;
      if (txCode !== undefined && (typeof txCode !== 'string' || txCode.length > 64))
        throw invalidRequest('tx_code must be a string.');
      return c.json(await wallet.exchangeCode(code, txCode), 200, NO_STORE);
    } catch (error) {
      return oauthError(c, error);
    }
  });

  app.post('/api/oid4vci/nonce', async (c) => {
    try {
      await consumeOrReject(nonceLimiter, clientIp(c, identity.service.settings.trustProxy));
    } catch (rejection) {
      if (!(rejection instanceof AppError) || rejection.status !== 429) throw rejection;
      return c.json(
        { error: 'slow_down', error_description: 'Too many nonce requests; try again later.' },
        429,
        NO_STORE,
      );
    }
    // A wallet that shows its access token gets a nonce good for that token only.
    const token = await accessTokenOf(c, wallet);
    return c.json({ c_nonce: await wallet.newNonce(token?.token_hash ?? null) }, 200, NO_STORE);
  });

  app.post('/api/oid4vci/credential', async (c) => {
    try {
      const token = await accessTokenOf(c, wallet);
      if (!token) throw invalidToken('The access token is missing, unknown or expired.');
      const request = await readJsonObject(c);
      const type = configurationOf(request, baseUrl);
      const allowed = JSON.parse(token.types) as string[];
      if (!allowed.includes(type))
        throw new OAuthError(
          400,
          'unknown_credential_configuration',
          'The offer behind this access token does not include that credential.',
        );
      const holderJwk = await checkProof(proofJwtOf(request), baseUrl, wallet, token.token_hash);
      const subject = await walletSubject(identity.db, baseUrl, type, token).catch((error: unknown) => {
        throw new OAuthError(
          400,
          'credential_request_denied',
          error instanceof Error ? error.message : 'Denied.',
        );
      });
      const issued = await ctx.credentials.issue({
        realmId: token.realm_id,
        type,
        ...subject,
        holderJwk,
        issuedBy: token.user_id,
        channel: 'wallet',
      });
      return c.json({ credentials: [{ credential: issued.sdjwt }], credential: issued.sdjwt }, 200, NO_STORE);
    } catch (error) {
      return oauthError(c, error);
    }
  });
}
