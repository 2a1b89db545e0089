/**
 * @module http/sessions
 * | GET /api/session | cookie `xv_session`; credentialed CORS for the shared domain | session object, or 401 `{authenticated:false}` |
 * | GET /step-up     | query `redirect*`, `aal` (default AAL2), `max_age` (seconds)   | 302 to `redirect` at the level (proved within `max_age` when given), else to `/login?aal&redirect`; 400 page for a bad redirect |
 */
import { type App, access, createRoute, jsonResponse, sharedDomainCors, z } from '@xv/platform/http';
import { isLevel, meetsLevel, provedWithin } from '../sessions/assurance.js';
import type { IdentityContext } from './context.js';
import { withQuery } from './forms.js';
import { safeRedirect } from './redirects.js';
import { sendMessage } from './respond.js';
import { sessionSchema } from './schemas.js';

const sessionRoute = createRoute({
  method: 'get',
  path: '/api/session',
  summary: 'The signed-in session of the xv_session cookie',
  security: access.session,
  responses: {
    200: jsonResponse('The session', sessionSchema),
    401: jsonResponse('No valid session', z.object({ authenticated: z.literal(false) })),
  },
});

export function registerSessionRoutes(app: App, identity: IdentityContext) {
  app.use('/api/session', sharedDomainCors(identity.sharedDomain));
  app.openapi(sessionRoute, async (c) => {
    const session = await identity.currentSession(c);
    c.header('Cache-Control', 'no-store');
    if (!session) return c.json({ authenticated: false as const }, 401);
    return c.json(session.view, 200);
  });

  app.get('/step-up', async (c) => {
    const redirect = safeRedirect(c.req.query('redirect'), identity.redirectPolicy);
    const aal = c.req.query('aal') ?? 'AAL2';
    if (!redirect || !isLevel(aal)) {
      const message = !redirect ? 'stepUpLink.badRedirect' : 'stepUpLink.badLevel';
      return sendMessage(identity, c, { title: 'stepUpLink.title', message }, 400);
    }
    const session = await identity.currentSession(c);
    // `max_age` (as in OpenID Connect): the level must have been proved that recently, e.g. before an authenticator change.
    const maxAge = Number(c.req.query('max_age') ?? Number.NaN);
    const fresh =
      !Number.isFinite(maxAge) || (session !== null && provedWithin(session, aal, maxAge * 1000, Date.now()));
    if (session && meetsLevel(session.aal, aal) && fresh) return c.redirect(redirect, 302);
    return c.redirect(withQuery('/login', { aal, redirect }), 302);
  });
}
