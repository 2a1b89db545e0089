/**
 * @module http/search
 * `POST /api/ai/search`: hybrid search over the approved documents of the
 * caller's organization, for a token with `ai:read` or an SSO session.
 * `POST /api/public/search`: the same over the documents an organization marked
 * public, for anyone (the agent's anonymous visitors), only while the
 * organization's public assistant is on; limited per IP address.
 */
import { type App, createRoute, jsonBody, jsonResponse, limitByIp, publicCors, z } from '@xv/platform/http';
import { errors } from '../errors.js';
import { DEFAULT_TOP_K, MAX_TOP_K } from '../search/limits.js';
import type { Knowledge } from './context.js';

export const SearchHitSchema = z.object({
  docId: z.string(),
  title: z.string(),
  headingPath: z.string(),
  text: z.string(),
  score: z.number(),
});

const search = createRoute({
  method: 'post',
  path: '/api/ai/search',
  summary: 'Search the approved knowledge of your organization',
  request: {
    body: jsonBody(
      z.object({
        query: z.string().trim().min(1).max(2000),
        topK: z.number().int().min(1).max(1000).default(DEFAULT_TOP_K),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      `The best passages, at most topK (capped at ${MAX_TOP_K})`,
      z.object({ hits: z.array(SearchHitSchema) }),
    ),
  },
});

const publicSearch = createRoute({
  method: 'post',
  path: '/api/public/search',
  summary: 'Search the documents an organization with a public assistant marked public (no sign-in)',
  request: {
    body: jsonBody(
      z.object({
        orgId: z.string().min(1).max(64),
        query: z.string().trim().min(1).max(2000),
        topK: z.number().int().min(1).max(1000).default(DEFAULT_TOP_K),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      `The best public passages, at most topK (capped at ${MAX_TOP_K})`,
      z.object({ hits: z.array(SearchHitSchema) }),
    ),
  },
});

export function registerSearchRoutes(app: App, k: Knowledge) {
  app.use('/api/public/search', publicCors());
  app.post('/api/public/search', limitByIp(k.publicSearchLimiter, k.trustProxy));
  app.openapi(publicSearch, async (c) => {
    const { orgId, query, topK } = c.req.valid('json');
    // An unknown organization and one without a public assistant answer alike.
    if (!(await k.organizations.hasPublicAssistant(orgId))) throw errors.no_public_assistant();
    return c.json({ hits: await k.index.searchPublic(orgId, query, Math.min(topK, MAX_TOP_K)) }, 200);
  });

  app.openapi(search, async (c) => {
    const caller = await k.auth.tokenOrSession(c, 'ai:read');
    const { query, topK } = c.req.valid('json');
    return c.json({ hits: await k.index.search(caller.orgId, query, Math.min(topK, MAX_TOP_K)) }, 200);
  });
}
