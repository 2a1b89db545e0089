/**
 * @module http/router
 * | POST | /api/route | public | `{prompt*, difficulty}` → route result |
 */

import { platformErrors, type RateLimiter } from '@xv/platform';
import { type App, access, createRoute, errorResponses, limitByIp, z } from '@xv/platform/http';
import { errors } from '../errors.js';
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
  security: access.public,
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
          example: { prompt: 'Summarise our refund policy in one sentence.', difficulty: 'balanced' },
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
          example: {
            ok: true,
            label: 'Balanced',
            model: 'openai-compatible:llama-3.1-8b-instruct',
            latencyMs: 812,
            answer: 'Refunds are paid within 14 days of the returned item reaching us.',
            hops: [{ model: 'openai-compatible:llama-3.1-8b-instruct', status: 'ok', latencyMs: 812 }],
          },
        },
      },
    },
    ...errorResponses(
      errors.empty_prompt,
      errors.prompt_too_long,
      platformErrors.rate_limited,
      errors.all_failed,
      errors.ai_unavailable,
    ),
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
