/**
 * @module http/api/keys
 * `GET /api/keys/jwks`: the issuers' published keys, active and retired.
 */
import { type App, access, createRoute, jsonResponse, z } from '@xv/platform/http';
import type { PublishedKeys } from '../../issuers/published-keys.js';

const KeyEntry = z
  .object({
    kid: z.string(),
    keyId: z.string(),
    did: z.string(),
    jwk: z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }),
    ethAddress: z.string(),
    status: z.enum(['active', 'retired']),
    createdAt: z.string(),
    retiredAt: z.string().nullable(),
  })
  .openapi('IssuerKey');

const jwksRoute = createRoute({
  method: 'get',
  path: '/api/keys/jwks',
  summary: 'Issuer public keys (active and retired; the demo issuer only in demo mode)',
  security: access.public,
  responses: { 200: jsonResponse('The issuer key set', z.object({ keys: z.array(KeyEntry) })) },
});

export function registerKeysApi(app: App, publishedKeys: PublishedKeys) {
  app.openapi(jwksRoute, async (c) => {
    const keys = await publishedKeys.all();
    c.header('Cache-Control', 'public, max-age=60');
    return c.json(
      {
        keys: keys.map((k) => ({
          kid: k.orgId,
          keyId: k.keyId,
          did: k.did,
          jwk: k.jwk,
          ethAddress: k.ethAddress,
          status: k.status,
          createdAt: new Date(k.createdAt).toISOString(),
          retiredAt: k.retiredAt === null ? null : new Date(k.retiredAt).toISOString(),
        })),
      },
      200,
    );
  });
}
