/**
 * @module http/leads
 * | POST | /api/lead           | public, optional bot challenge | `{ok:true}`                   |
 * | GET  | /api/lead/challenge | public (ALTCHA on)             | an ALTCHA challenge            |
 * | GET  | /api/leads          | operator token (bearer)        | leads, newest first, paginated |
 * | GET  | /, /lead, POST /lead | public                        | the lead form page             |
 */

import {
  AppError,
  constantTimeEqual,
  consumeOrReject,
  isLimited,
  platformErrors,
  type RateLimiter,
  tooManyRequests,
} from '@xv/platform';
import {
  type App,
  access,
  allowInContentSecurityPolicy,
  clientIp,
  createRoute,
  cspNonce,
  errorResponses,
  limitByIp,
  z,
} from '@xv/platform/http';
import { registerClientAssets, renderWithShell, shellOf } from '@xv/platform/pages';
import type { Context } from 'hono';
import type { OrchestrationDatabase } from '../db.js';
import { errors } from '../errors.js';
import { captureLead } from '../leads/capture.js';
import type { BotChallenge } from '../leads/challenge.js';
import { listLeads } from '../leads/leads.js';
import { LeadPage, TURNSTILE_ORIGIN } from './lead-page.js';

export interface LeadRoutesOptions {
  database: OrchestrationDatabase;
  challenge: BotChallenge;
  turnstileSiteKey: string | undefined;
  adminToken: string | undefined;
  trustProxy: boolean;
  leadLimiter: RateLimiter;
  readLimiter: RateLimiter;
  /** Spent by failed operator-token attempts only. */
  adminFailureLimiter: RateLimiter;
  page: boolean;
}

const leadBody = z.object({
  name: z.string().max(200),
  email: z.string().max(254),
  company: z.string().max(200).optional(),
  tool: z.string().max(64).optional(),
  altcha: z.string().max(8192).optional().openapi({ description: 'ALTCHA payload, when ALTCHA is on' }),
  'cf-turnstile-response': z
    .string()
    .max(2048)
    .optional()
    .openapi({ description: 'Turnstile token, when Turnstile is on' }),
});

const postLead = createRoute({
  method: 'post',
  path: '/api/lead',
  summary: 'Capture a lead',
  security: access.public,
  // The route's own hook answers a field the schema refuses with `invalid`.
  'x-input-error': 'invalid',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: leadBody,
          example: {
            name: 'Ada Lovelace',
            email: 'ada@analytical.example',
            company: 'Analytical Engines',
            tool: 'crm',
          },
        },
      },
    },
  },
  responses: {
    200: {
      description: 'Stored (or merged into the lead of the same address)',
      content: { 'application/json': { schema: z.object({ ok: z.literal(true) }) } },
    },
    ...errorResponses(
      errors.invalid,
      errors.personal_email,
      errors.challenge_required,
      errors.challenge_failed,
      errors.challenge_reused,
      platformErrors.rate_limited,
      errors.challenge_unavailable,
    ),
  },
});

const getChallenge = createRoute({
  method: 'get',
  path: '/api/lead/challenge',
  summary: 'A new ALTCHA proof-of-work challenge for the lead form',
  security: access.public,
  responses: {
    ...errorResponses(platformErrors.rate_limited),
    200: {
      description: 'ALTCHA v2 challenge',
      content: {
        'application/json': {
          schema: z.object({
            parameters: z.record(z.string(), z.unknown()),
            signature: z.string().optional(),
          }),
        },
      },
    },
    ...errorResponses([errors.challenge_unavailable, 'ALTCHA is not the configured challenge.']),
  },
});

const getLeads = createRoute({
  method: 'get',
  path: '/api/leads',
  summary: 'List leads (operator)',
  security: access.operator,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(500).default(50),
      cursor: z.string().max(200).optional(),
    }),
  },
  responses: {
    200: {
      description: 'Leads, newest first',
      content: {
        'application/json': {
          schema: z.object({
            ok: z.literal(true),
            leads: z.array(
              z.object({
                lead_id: z.string(),
                name: z.string(),
                email: z.string(),
                company: z.string().nullable(),
                tool: z.string(),
                submissions: z.number(),
                created_at: z.string(),
                updated_at: z.string(),
              }),
            ),
            nextCursor: z.string().nullable(),
          }),
        },
      },
    },
    ...errorResponses(
      [platformErrors.unauthenticated, 'Send the operator token as a bearer token.'],
      platformErrors.rate_limited,
    ),
  },
});

export async function registerLeadRoutes(app: App, options: LeadRoutesOptions): Promise<void> {
  const { database, challenge, trustProxy } = options;

  async function capture(c: Context, body: Record<string, unknown>) {
    const saved = await captureLead(database, challenge, body, clientIp(c, trustProxy));
    c.get('logger').info({ leadId: saved.leadId, created: saved.created }, 'lead captured');
  }

  app.use('/api/lead', limitByIp(options.leadLimiter, trustProxy));
  app.use('/api/lead/challenge', limitByIp(options.leadLimiter, trustProxy));
  app.use('/api/leads', limitByIp(options.readLimiter, trustProxy));

  app.openapi(
    postLead,
    async (c) => {
      await capture(c, c.req.valid('json'));
      return c.json({ ok: true as const }, 200);
    },
    (result) => {
      if (!result.success) {
        const field = result.error.issues[0]?.path.join('.') || 'body';
        throw errors.invalid(`The field "${field}" is missing or invalid.`, { field });
      }
    },
  );

  app.openapi(getChallenge, async (c) => c.json(await challenge.issue(), 200));

  app.openapi(getLeads, async (c) => {
    const presented = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const key = clientIp(c, trustProxy);
    // A locked-out address gets no answer about its guesses, right or wrong.
    const locked = await isLimited(options.adminFailureLimiter, key);
    if (locked) throw tooManyRequests(locked);
    if (!options.adminToken || !presented || !constantTimeEqual(presented, options.adminToken)) {
      await consumeOrReject(options.adminFailureLimiter, key);
      throw platformErrors.unauthenticated('Send the operator token as a bearer token.');
    }
    const { limit, cursor } = c.req.valid('query');
    return c.json({ ok: true as const, ...(await listLeads(database, { limit, cursor })) }, 200);
  });

  if (!options.page) {
    // Without the lead form the service's address leads to its API reference, never a 404.
    app.get('/', (c) => c.redirect('/docs', 302));
    return;
  }
  const assets = await registerClientAssets(app, import.meta.url);

  const page = (c: Context, props: Partial<Parameters<typeof LeadPage>[0]> = {}, status: 200 | 400 = 200) => {
    if (challenge.kind === 'turnstile') {
      // The only external asset: Turnstile's widget, from Cloudflare (its script, and the frame it opens).
      allowInContentSecurityPolicy(c, 'script-src', [TURNSTILE_ORIGIN]);
      allowInContentSecurityPolicy(c, 'frame-src', [TURNSTILE_ORIGIN]);
    }
    return c.html(
      renderWithShell(
        shellOf(c),
        <LeadPage
          assets={assets}
          challenge={challenge.kind}
          turnstileSiteKey={options.turnstileSiteKey}
          nonce={cspNonce(c)}
          {...props}
        />,
      ),
      status,
    );
  };

  // The service's own address is the form a visitor came for.
  app.get('/', (c) => page(c));
  app.get('/lead', (c) => page(c, c.req.query('sent') === '1' ? { outcome: { ok: true } } : {}));

  app.post('/lead', limitByIp(options.leadLimiter, trustProxy), async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : undefined);
    const values = { name: text('name') ?? '', email: text('email') ?? '', company: text('company') ?? '' };
    try {
      await capture(c, {
        ...values,
        altcha: text('altcha'),
        'cf-turnstile-response': text('cf-turnstile-response'),
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return page(c, { outcome: { ok: false, code: error.code, message: error.message }, values }, 400);
    }
    return c.redirect('/lead?sent=1', 303);
  });
}
