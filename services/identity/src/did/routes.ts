/**
 * @module did/routes
 * | GET /.well-known/did.json   | the service's DID document (`did:web:<identity host>`) |
 * | GET /o/{org_id}/did.json    | an organization's DID document |
 * | GET /u/{user_id}/did.json   | a user's DID document |
 * | GET /.well-known/jwt-vc-issuer | issuer and JWKS, for verifiers that do not resolve did:web |
 * All public, any origin.
 */
import { type App, publicCors } from '@xv/platform/http';
import { organizationDid, userDid } from '../accounts/dids.js';
import { findOrganization, findUserById } from '../accounts/repository.js';
import type { CredentialsContext } from '../credentials/context.js';
import { credentialErrors } from '../credentials/errors.js';
import { jwtVcIssuerMetadata, serviceDidDocument, subjectDidDocument } from './documents.js';

const DID_JSON = 'application/did+json';

export function registerDidRoutes(app: App, ctx: CredentialsContext) {
  for (const path of ['/.well-known/did.json', '/.well-known/jwt-vc-issuer', '/o/*', '/u/*'])
    app.use(path, publicCors());

  app.get('/.well-known/did.json', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(JSON.stringify(serviceDidDocument(ctx.did, await ctx.keyring.publishedKeys())), 200, {
      'Content-Type': DID_JSON,
    });
  });

  app.get('/.well-known/jwt-vc-issuer', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.json(jwtVcIssuerMetadata(ctx.baseUrl, ctx.did, await ctx.keyring.publishedKeys()));
  });

  app.get('/o/:orgId/did.json', async (c) => {
    const org = await findOrganization(ctx.identity.db, c.req.param('orgId'));
    if (!org) throw credentialErrors.org_not_found();
    const document = subjectDidDocument(
      organizationDid(ctx.baseUrl, org.id),
      ctx.did,
      await ctx.keyring.publishedKeys(),
    );
    return c.body(JSON.stringify(document), 200, { 'Content-Type': DID_JSON });
  });

  app.get('/u/:userId/did.json', async (c) => {
    const user = await findUserById(ctx.identity.db, c.req.param('userId'));
    if (!user) throw credentialErrors.user_not_found();
    const document = subjectDidDocument(
      userDid(ctx.baseUrl, user.id),
      ctx.did,
      await ctx.keyring.publishedKeys(),
    );
    return c.body(JSON.stringify(document), 200, { 'Content-Type': DID_JSON });
  });
}
