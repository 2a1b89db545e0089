/**
 * @module http/search
 * `POST /api/ai/search`: hybrid search over the approved documents of the
 * caller's organization, for a token with `ai:read` or an SSO session. Hits are
 * documents, each once with its best passage; `topK` counts them.
 * `POST /api/public/search`: the same over the documents an organization marked
 * public, for anyone (the agent's anonymous visitors), only while the
 * organization's public assistant is on; limited per IP address.
 */
import { guardErrors, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  jsonBody,
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

const hitExample = {
  docId: 'doc_01HZX4',
  title: 'Discount policy',
  headingPath: 'Discount policy > Approval',
  text: 'Discounts above 15 percent need the sales director’s approval.',
  score: 0.83,
  passages: [],
};

const search = createRoute({
  method: 'post',
  path: '/api/ai/search',
  summary: 'Search the approved knowledge of your organization',
  security: access.sessionOrPersonalToken('ai:read'),
  request: {
    body: jsonBody(
      z.object({
        query: z.string().trim().min(1).max(2000),
        topK: TopK,
      }),
      { example: { query: 'who approves large discounts', topK: 3 } },
    ),
  },
  responses: {
    200: jsonResponse(
      'The best documents, at most topK, each once with its best passage',
      z.object({ hits: z.array(SearchHitSchema) }),
      { hits: [hitExample] },
    ),
    ...errorResponses(
      errors.top_k_too_large,
      guardErrors.not_a_member,
      platformErrors.rate_limited,
      errors.embedder_unavailable,
    ),
  },
});

const publicSearch = createRoute({
  method: 'post',
  path: '/api/public/search',
  summary: 'Search the documents an organization with a public assistant marked public (no sign-in)',
  security: access.public,
  request: {
    body: jsonBody(
      z.object({
        orgId: z.string().min(1).max(64),
        query: z.string().trim().min(1).max(2000),
        topK: TopK,
      }),
      { example: { orgId: 'org_acme', query: 'how fast do orders ship', topK: 5 } },
    ),
  },
  responses: {
    200: jsonResponse(
      'The best public documents, at most topK, each once with its best passage',
      z.object({ hits: z.array(SearchHitSchema) }),
      {
        hits: [
          {
            ...hitExample,
            title: 'Shipping',
            headingPath: 'Shipping',
            text: 'Orders ship within two business days.',
          },
        ],
      },
    ),
    ...errorResponses(
      errors.top_k_too_large,
      errors.no_public_assistant,
      platformErrors.rate_limited,
      errors.embedder_unavailable,
    ),
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
