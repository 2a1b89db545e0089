/**
 * @module http/search
 * `POST /api/ai/search`: hybrid search over the approved documents of the
 * caller's organization, for a token with `ai:read` or an SSO session. Hits are
 * documents, each once with its best passage; `topK` counts them.
 * `POST /api/public/search`: the same over the documents an organization marked
 * public, for anyone (the agent's anonymous visitors), only while the
 * organization's public assistant is on; limited per IP address.
 */
import {
  type App,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  limitByIp,
  publicCors,
  z,
} from '@xv/platform/http';
import { errors } from '../errors.js';
import { DEFAULT_TOP_K, MAX_TOP_K } from '../search/limits.js';
import type { Knowledge } from './context.js';

const PassageSchema = z.object({
  headingPath: z.string(),
  text: z.string(),
  score: z.number(),
});

export const SearchHitSchema = PassageSchema.extend({
  docId: z.string(),
  title: z.string(),
  passages: z.array(PassageSchema).describe("The document's other matching passages, best first"),
});

/** `topK` counts documents; above the maximum the answer is 400 `top_k_too_large`, never a silent cap. */
const TopK = z
  .number()
  .int()
  .min(1)
  .default(DEFAULT_TOP_K)
  .describe(`How many documents, at most ${MAX_TOP_K} (more answers 400 top_k_too_large)`);

function checkTopK(topK: number): number {
  if (topK > MAX_TOP_K) throw errors.top_k_too_large(undefined, { maximum: MAX_TOP_K });
  return topK;
}

const failures = {
  400: jsonErrorResponse(`Invalid body, or topK above ${MAX_TOP_K} (top_k_too_large, with maximum)`),
};

const search = createRoute({
  method: 'post',
  path: '/api/ai/search',
  summary: 'Search the approved knowledge of your organization',
  request: {
    body: jsonBody(
      z.object({
        query: z.string().trim().min(1).max(2000),
        topK: TopK,
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      'The best documents, at most topK, each once with its best passage',
      z.object({ hits: z.array(SearchHitSchema) }),
    ),
    ...failures,
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
        topK: TopK,
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      'The best public documents, at most topK, each once with its best passage',
      z.object({ hits: z.array(SearchHitSchema) }),
    ),
    ...failures,
  },
});

export function registerSearchRoutes(app: App, k: Knowledge) {
  app.use('/api/public/search', publicCors());
  app.post('/api/public/search', limitByIp(k.publicSearchLimiter, k.trustProxy));
  app.openapi(publicSearch, async (c) => {
    const { orgId, query, topK } = c.req.valid('json');
    checkTopK(topK);
    // An unknown organization and one without a public assistant answer alike.
    if (!(await k.organizations.hasPublicAssistant(orgId))) throw errors.no_public_assistant();
    return c.json({ hits: await k.index.searchPublic(orgId, query, topK) }, 200);
  });

  app.openapi(search, async (c) => {
    const caller = await k.auth.tokenOrSession(c, 'ai:read');
    const { query, topK } = c.req.valid('json');
    return c.json({ hits: await k.index.search(caller.orgId, query, checkTopK(topK)) }, 200);
  });
}
