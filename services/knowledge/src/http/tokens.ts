/**
 * @module http/tokens
 * `POST /api/tokens`, `GET /api/tokens`, `DELETE /api/tokens/:id`: personal
 * access tokens of the signed-in user in their active organization.
 */
import { guardErrors, platformErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  jsonBody,
  jsonResponse,
  okBody,
  z,
} from '@xv/platform/http';
import { SCOPES } from '../access/caller.js';
import { errors } from '../errors.js';
import type { Knowledge } from './context.js';

const TokenName = z.string().trim().min(1).max(100);
const Scopes = z.array(z.enum(SCOPES)).min(1).max(SCOPES.length);

const TokenSummary = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});

// Every route here acts for the signed-in person in their active organization.
const sessionErrors = [platformErrors.unauthenticated, guardErrors.not_a_member] as const;

const createToken = createRoute({
  method: 'post',
  path: '/api/tokens',
  summary: 'Create a personal access token (shown once)',
  security: access.session,
  request: {
    body: jsonBody(z.object({ name: TokenName, scopes: Scopes }), {
      example: { name: 'Obsidian vault on my laptop', scopes: ['sync'] },
    }),
  },
  responses: {
    201: jsonResponse(
      'The new token; its secret is never shown again',
      z.object({ id: z.string(), token: z.string(), scopes: z.array(z.enum(SCOPES)) }),
      { id: 'tok_7Hq2Lm9xPc', token: 'xkb_Q3vT8nW2rYk5pZ0aLm4sJd7fHc1gXe6b', scopes: ['sync'] },
    ),
    ...errorResponses(...sessionErrors),
  },
});

const listTokens = createRoute({
  method: 'get',
  path: '/api/tokens',
  summary: 'List your live personal access tokens',
  security: access.session,
  responses: {
    ...errorResponses(...sessionErrors),
    200: jsonResponse('Tokens, without their secrets', z.object({ tokens: z.array(TokenSummary) })),
  },
});

const revokeToken = createRoute({
  method: 'delete',
  path: '/api/tokens/{id}',
  summary: 'Revoke a personal access token',
  security: access.session,
  request: { params: z.object({ id: z.string().min(1).max(64).openapi({ example: 'tok_7Hq2Lm9xPc' }) }) },
  responses: {
    200: jsonResponse('Revoked', okBody),
    ...errorResponses(...sessionErrors, errors.token_not_found),
  },
});

export function registerTokenRoutes(app: App, k: Knowledge) {
  app.openapi(createToken, async (c) => {
    const caller = await k.auth.session(c);
    const { name, scopes } = c.req.valid('json');
    return c.json(await k.tokens.create(caller, name, scopes), 201);
  });
  app.openapi(listTokens, async (c) => {
    const caller = await k.auth.session(c);
    return c.json({ tokens: await k.tokens.list(caller) }, 200);
  });
  app.openapi(revokeToken, async (c) => {
    const caller = await k.auth.session(c);
    await k.tokens.revoke(caller, c.req.valid('param').id);
    return c.json({ ok: true as const }, 200);
  });
}
