/**
 * @module http/credentials/wallet
 * | POST /api/did/offer                          | session | `{type|types, org_id, pin}` | credential offer (by value and by reference) |
 * | GET  /api/oid4vci/offers/{reference}         | none (the reference is the secret) | | the offer document, once (then 410) |
 * | GET  /.well-known/openid-credential-issuer   | none    | | credential issuer metadata |
 * | GET  /.well-known/oauth-authorization-server | none    | | authorization server metadata |
 * | POST /api/oid4vci/token                      | none    | form or JSON: `grant_type*`, `pre-authorized_code*`, `tx_code` | wallet token response |
 * | POST /api/oid4vci/nonce                      | none, or bearer access token | | `{c_nonce}`, bound to the token when one is shown |
 * | POST /api/oid4vci/credential                 | bearer access token | `{credential_configuration_id*, proof | proofs}` | wallet credential response |
 * The wallet endpoints answer errors as OAuth does: `{error, error_description}`.
 */

import { AppError, consumeOrReject, createRateLimiter, guardErrors, type RateLimiter } from '@xv/platform';
import {
  type App,
  access,
  activeMembership,
  clientIp,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  publicCors,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import {
  authorizationServerMetadata,
  type CredentialOfferResult,
  type Credentials,
  credentialErrors,
  credentialIssuerMetadata,
  invalidRequest,
  invalidToken,
  isJsonObject,
  type JsonObject,
  OAuthError,
  type OfferInput,
  type WalletToken,
} from '../../credentials/index.js';
import type { IdentityContext } from '../context.js';

const offerRoute = createRoute({
  method: 'post',
  path: '/api/did/offer',
  summary: 'Create an OpenID4VCI credential offer (pre-authorized code, optional PIN) for your wallet',
  security: access.session,
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
        offerUriByReference: z.string(),
        txCode: z.string().optional(),
        expiresAt: z.number().int(),
      }),
    ),
    400: jsonErrorResponse(
      'Bad request',
      credentialErrors.type_required,
      credentialErrors.unknown_type,
      credentialErrors.org_required,
    ),
    401: jsonErrorResponse('No session'),
    403: jsonErrorResponse(
      'Not a member or not an admin',
      guardErrors.not_a_member,
      credentialErrors.admin_required,
    ),
  },
});

const offerDocumentRoute = createRoute({
  method: 'get',
  path: '/api/oid4vci/offers/{reference}',
  summary:
    "A credential offer by reference (the wallet's credential_offer_uri): served once, until it expires",
  security: access.public,
  request: {
    params: z.object({
      reference: z.string().max(128).openapi({ example: 'xof_q7Vb3nK9pL2mW8rT5yB1nC7dF4gH0jS6aEx3Zt1uR0w' }),
    }),
  },
  responses: {
    200: jsonResponse('The credential offer', z.record(z.string(), z.unknown())),
    404: jsonErrorResponse('No such offer', credentialErrors.offer_not_found),
    410: jsonErrorResponse(
      'Already fetched, or expired',
      credentialErrors.offer_already_fetched,
      credentialErrors.offer_expired,
    ),
  },
});

/** What `newSecretToken('xof')` makes: 256 random bits. */
const OFFER_REFERENCE = /^xof_[A-Za-z0-9_-]{43}$/;

const NO_STORE = { 'Cache-Control': 'no-store' };

function oauthError(c: Context, error: unknown) {
  if (!(error instanceof OAuthError)) throw error;
  const headers: Record<string, string> = { ...NO_STORE };
  if (error.status === 401) headers['WWW-Authenticate'] = `Bearer error="${error.error}"`;
  return c.json(error.toJSON(), error.status, headers);
}

/** The live wallet access token of the request's `Authorization` header, or undefined. */
async function accessTokenOf(c: Context, credentials: Credentials): Promise<WalletToken | undefined> {
  const match = /^(?:Bearer|DPoP)\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  return match ? credentials.wallet.token(match[1]!) : undefined;
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

/** The session of a signed-in person, as the identity context resolves it. */
export type SignedInSession = Awaited<ReturnType<IdentityContext['requireSession']>>;

/** Creates a wallet offer for the signed-in person of request `c`. */
export function offerFor(
  credentials: Credentials,
  c: Context,
  session: SignedInSession,
  input: OfferInput,
): Promise<CredentialOfferResult> {
  return credentials.offer(
    {
      realmId: session.realmId,
      userId: session.userId,
      memberships: session.view.memberships,
      active: activeMembership(session.view, c),
    },
    input,
  );
}

export async function registerWalletRoutes(app: App, identity: IdentityContext, credentials: Credentials) {
  const { baseUrl } = credentials;
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
    const offer = await offerFor(credentials, c, session, {
      types: requested,
      orgId: body.org_id,
      pin: body.pin === true,
    });
    c.header('Cache-Control', 'no-store');
    return c.json(offer, 200);
  });

  app.openapi(offerDocumentRoute, async (c) => {
    const { reference } = c.req.valid('param');
    if (!OFFER_REFERENCE.test(reference)) throw credentialErrors.offer_not_found();
    return c.json(await credentials.wallet.takeOfferDocument(reference), 200, NO_STORE);
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
      return c.json(await credentials.walletToken(await readTokenRequest(c)), 200, NO_STORE);
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
    const token = await accessTokenOf(c, credentials);
    return c.json({ c_nonce: await credentials.wallet.newNonce(token?.token_hash ?? null) }, 200, NO_STORE);
  });

  app.post('/api/oid4vci/credential', async (c) => {
    try {
      const token = await accessTokenOf(c, credentials);
      if (!token) throw invalidToken('The access token is missing, unknown or expired.');
      const sdjwt = await credentials.walletCredential(token, await readJsonObject(c));
      return c.json({ credentials: [{ credential: sdjwt }], credential: sdjwt }, 200, NO_STORE);
    } catch (error) {
      return oauthError(c, error);
    }
  });
}
