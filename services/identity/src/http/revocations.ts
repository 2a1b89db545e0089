/**
 * @module http/revocations
 * | GET /api/revocations/epoch | none | query `after` (the epoch the caller knows) | `{epoch}`: at once when it differs from `after`, else when it changes or after ~25 s |
 * | GET /api/internal/memberships | bearer internal credential | query `user_id`, `org_id` | `{member, role, permissions, active}` |
 *
 * The first is public: it reveals only a number. Every XV service holds it open to
 * learn within a second that access was taken away (auth/revocations.ts in the
 * platform). The second answers services that must check a member's standing
 * before honouring a credential the member left behind; it is not in the OpenAPI
 * document, and any caller without the internal credential gets 401.
 */

import { platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  isInternalCaller,
  jsonErrorResponse,
  jsonResponse,
  z,
} from '@xv/platform/http';
import { memberStanding } from '../accounts/organizations.js';
import type { IdentityContext } from './context.js';

const epochRoute = createRoute({
  method: 'get',
  path: '/api/revocations/epoch',
  summary: 'The revocation epoch (a long-poll: answers when it differs from `after`, or after ~25 s)',
  security: access.public,
  request: {
    query: z.object({
      after: z
        .string()
        .regex(/^\d{1,15}$/, 'must be an epoch number')
        .optional()
        .openapi({ example: '41' }),
    }),
  },
  responses: {
    200: jsonResponse('The current epoch', z.object({ epoch: z.number().int() }), { epoch: 42 }),
    400: jsonErrorResponse('`after` is not a number', [
      platformErrors.invalid_request,
      'query.after: must be an epoch number',
    ]),
  },
});

const membershipQuery = z.object({
  user_id: z.string().min(1).max(64),
  org_id: z.string().min(1).max(64),
});

export function registerRevocationRoutes(app: App, identity: IdentityContext) {
  const { db } = identity;

  app.openapi(epochRoute, async (c) => {
    // Every service instance keeps one of these open all the time: not worth an info line each.
    c.set('quietLog', true);
    const { after } = c.req.valid('query');
    const signal = AbortSignal.any([identity.service.stopping, c.req.raw.signal]);
    const epoch = await identity.revocations.waitForChange(
      after === undefined ? undefined : Number(after),
      identity.config.revocationHoldSeconds * 1000,
      signal,
    );
    c.header('Cache-Control', 'no-store');
    // Shutting down: the server is waiting for this connection to end, so do not keep it alive.
    if (identity.service.stopping.aborted) c.header('Connection', 'close');
    return c.json({ epoch }, 200);
  });

  app.get('/api/internal/memberships', async (c) => {
    if (!isInternalCaller(c, identity.service.internalToken))
      throw platformErrors.unauthenticated('This endpoint is for XV services only.');
    const query = membershipQuery.safeParse({
      user_id: c.req.query('user_id'),
      org_id: c.req.query('org_id'),
    });
    if (!query.success) throw platformErrors.invalid_request('Give user_id and org_id.');
    const { user_id, org_id } = query.data;
    const standing = await memberStanding(db, user_id, org_id);
    c.header('Cache-Control', 'no-store');
    return c.json(standing);
  });
}
