/**
 * @module http/credentials/did
 * | GET /.well-known/did.json   | the service's DID document (`did:web:<identity host>`) |
 * | GET /o/{org_id}/did.json    | an organization's DID document |
 * | GET /u/{user_id}/did.json   | a user's DID document |
 * All public, any origin. The credentials' `iss` is the service DID, so the keys are
 * published only in its DID document (no `/.well-known/jwt-vc-issuer`, which is for
 * https-URL issuers and would name an issuer other than `iss`).
 */
import { type App, publicCors } from '@xv/platform/http';
import type { Credentials } from '../../credentials/index.js';

const DID_JSON = 'application/did+json';

export function registerDidRoutes(app: App, credentials: Credentials) {
  const { dids } = credentials;
  for (const path of ['/.well-known/did.json', '/o/*', '/u/*']) app.use(path, publicCors());

  app.get('/.well-known/did.json', async (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(JSON.stringify(await dids.service()), 200, { 'Content-Type': DID_JSON });
  });

  app.get('/o/:orgId/did.json', async (c) => {
    const document = await dids.organization(c.req.param('orgId'));
    return c.body(JSON.stringify(document), 200, { 'Content-Type': DID_JSON });
  });

  app.get('/u/:userId/did.json', async (c) => {
    const document = await dids.user(c.req.param('userId'));
    return c.body(JSON.stringify(document), 200, { 'Content-Type': DID_JSON });
  });
}
