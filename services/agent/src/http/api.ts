/**
 * @module http/api
 * The agent API as the spec lists it. The session is chosen by `?session=` or
 * the `x-agent-session` header, within the caller's own sessions (see
 * `access/principal.ts`): the same id from another owner is another session.
 *
 * | route | does |
 * |---|---|
 * | POST /api/chat {message, route} | streams the answer (`text/plain; charset=utf-8`); waits its turn (`chat.ts`) |
 * | GET /api/state | the session: tenant, route, systemPrompt, messageCount, messages |
 * | POST /api/config {route, systemPrompt, tenant} | `{ok:true, route}` |
 * | POST /api/reset | `{ok:true}`: the conversation is forgotten, the settings stay |
 * | GET /api/tickets | tickets the caller opened, and their active organization's with `tickets:read` |
 */
import { guardErrors } from '@xv/platform';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  jsonBody,
  jsonResponse,
  okBody,
  sharedDomainCors,
  z,
} from '@xv/platform/http';
import { errors } from '../errors.js';
import { type ChatRouteOptions, registerChatRoute } from './chat.js';
import { principalOf } from './principal.js';
import {
  configBody,
  routeSchema,
  sessionHeaders,
  sessionQuery,
  stateSchema,
  ticketSchema,
} from './schemas.js';
import { sessionIdOf } from './session-id.js';

export interface AgentApiOptions extends ChatRouteOptions {
  sharedDomain: string;
}

/** The session is named by `?session=` or the header. */
const sessionRequest = { query: sessionQuery, headers: sessionHeaders };
const sessionErrors = [errors.session_required, errors.invalid_session, errors.session_conflict] as const;
const failures = errorResponses(...sessionErrors);
/** A route that waits for the session's turn may find it still taken, or its caller gone. */
const turnFailures = errorResponses(...sessionErrors, errors.cancelled, errors.session_busy);

const stateRoute = createRoute({
  method: 'get',
  path: '/api/state',
  summary: 'The session state',
  security: access.sessionOrAnonymous,
  request: sessionRequest,
  responses: {
    200: jsonResponse('The session state', stateSchema, {
      session: 'support-7f3a',
      tenant: 'org_acme',
      route: { provider: 'openai-compatible', model: 'llama-3.1-8b-instruct' },
      systemPrompt: 'You are the support assistant of Acme.',
      messageCount: 2,
      messages: [
        { id: 'msg_1', role: 'user', content: 'When do orders ship?', ts: 1768469400000 },
        {
          id: 'msg_2',
          role: 'assistant',
          content: 'Orders ship within two business days.',
          ts: 1768469402000,
          tools: ['search_knowledge'],
        },
      ],
    }),
    ...failures,
  },
});

const configRoute = createRoute({
  method: 'post',
  path: '/api/config',
  summary: "Change the session's route, system prompt or tenant",
  security: access.sessionOrAnonymous,
  request: {
    ...sessionRequest,
    body: jsonBody(configBody, {
      example: {
        route: { provider: 'openai-compatible', model: 'llama-3.1-8b-instruct' },
        systemPrompt: 'You are the support assistant of Acme.',
        tenant: 'org_acme',
      },
    }),
  },
  responses: {
    200: jsonResponse('Saved', z.object({ ok: z.literal(true), route: routeSchema }), {
      ok: true,
      route: { provider: 'openai-compatible', model: 'llama-3.1-8b-instruct' },
    }),
    ...turnFailures,
    // Naming an organization: a member's own, or one with a public assistant.
    403: errorResponses(guardErrors.not_a_member, errors.no_public_assistant)[403]!,
  },
});

const resetRoute = createRoute({
  method: 'post',
  path: '/api/reset',
  summary: "Clear the session's conversation history",
  security: access.sessionOrAnonymous,
  request: sessionRequest,
  responses: { 200: jsonResponse('Cleared', okBody), ...turnFailures },
});

const ticketsRoute = createRoute({
  method: 'get',
  path: '/api/tickets',
  summary:
    "Tickets the caller opened, and their active organization's for holders of tickets:read, newest first",
  security: access.sessionOrAnonymous,
  request: sessionRequest,
  responses: {
    200: jsonResponse('The tickets', z.object({ ok: z.literal(true), tickets: z.array(ticketSchema) })),
    ...failures,
  },
});

export function registerAgentApi(app: App, options: AgentApiOptions): void {
  const { conversations, sso } = options;
  // Sites under the shared domain may embed the agent.
  app.use('/api/*', sharedDomainCors(options.sharedDomain));
  registerChatRoute(app, options);

  app.openapi(stateRoute, async (c) => {
    const id = sessionIdOf(c);
    return c.json(await conversations.state(await principalOf(c, sso), id), 200);
  });

  app.openapi(configRoute, async (c) => {
    const id = sessionIdOf(c);
    const changes = c.req.valid('json');
    const principal = await principalOf(c, sso);
    const route = await conversations.configure(principal, id, changes, c.req.raw.signal);
    return c.json({ ok: true as const, route }, 200);
  });

  app.openapi(resetRoute, async (c) => {
    const id = sessionIdOf(c);
    await conversations.reset(await principalOf(c, sso), id, c.req.raw.signal);
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(ticketsRoute, async (c) => {
    const session = sessionIdOf(c);
    const tickets = await conversations.tickets(await principalOf(c, sso), session);
    return c.json({ ok: true as const, tickets }, 200);
  });
}
