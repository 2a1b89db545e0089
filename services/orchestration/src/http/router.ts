/**
 * @module http/router
 * | POST | /api/route | public | `{prompt*, difficulty}` → route result |
 */

import type { RateLimiter } from '@xv/platform';
import { type App, createRoute, limitByIp, z } from '@xv/platform/http';
import { checkPrompt, type ModelRouter, PROMPT_MAX_CHARACTERS } from '../router/router.js';
import { TIER_NAMES } from '../router/tiers.js';

const hop = z.object({
  model: z.string(),
  status: z.enum(['ok', 'error']),
  latencyMs: z.number().int().optional(),
  reason: z.string().optional(),
  skipped: z.literal('cooldown').optional(),
});

const routePrompt = createRoute({
  method: 'post',
  path: '/api/route',
  summary: 'Answer a prompt with the first model of the tier that succeeds',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            prompt: z
              .string()
              .optional()
              .openapi({ description: `Required; at most ${PROMPT_MAX_CHARACTERS} characters` }),
            difficulty: z.enum(TIER_NAMES).default('balanced'),
          }),
        },
      },
    },
  },
  responses: {
    200: {
      description: 'The answer and every attempt',
      content: {
        'application/json': {
          schema: z.object({
            ok: z.literal(true),
            label: z.string(),
            model: z.string(),
            latencyMs: z.number().int(),
            answer: z.string(),
            hops: z.array(hop),
          }),
        },
      },
    },
    400: { description: '`empty_prompt`, `prompt_too_long` or `invalid_request`' },
    429: { description: '`rate_limited`' },
    502: { description: '`all_failed`, with `hops`' },
    503: { description: '`ai_unavailable`' },
  },
});

export function registerRouterRoutes(
  app: App,
  { router, limiter, trustProxy }: { router: ModelRouter; limiter: RateLimiter; trustProxy: boolean },
) {
  app.use('/api/route', limitByIp(limiter, trustProxy));
  app.openapi(routePrompt, async (c) => {
    const { prompt, difficulty } = c.req.valid('json');
    const result = await router.route(difficulty, checkPrompt(prompt), { signal: c.req.raw.signal });
    return c.json(result, 200);
  });
}
