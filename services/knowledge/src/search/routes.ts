/**
 * @module search/routes
 * `POST /api/ai/search`: hybrid search over the approved documents of the
 * caller's organization, for a token with `ai:read` or an SSO session.
 */
import { type App, createRoute, z } from '@xv/platform';
import { DEFAULT_TOP_K, type Knowledge, MAX_TOP_K } from '../knowledge.js';

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
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            query: z.string().trim().min(1).max(2000),
            topK: z.number().int().min(1).max(1000).default(DEFAULT_TOP_K),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: `The best passages, at most topK (capped at ${MAX_TOP_K})`,
      content: { 'application/json': { schema: z.object({ hits: z.array(SearchHitSchema) }) } },
    },
  },
});

export function searchRoutes(app: App, k: Knowledge) {
  app.openapi(search, async (c) => {
    const caller = await k.auth.tokenOrSession(c, 'ai:read');
    const { query, topK } = c.req.valid('json');
    return c.json({ hits: await k.index.search(caller.orgId, query, Math.min(topK, MAX_TOP_K)) }, 200);
  });
}
