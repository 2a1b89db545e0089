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
import {
  type App,
  createRoute,
  jsonBody,
  jsonErrorResponse,
  jsonResponse,
  okBody,
  sharedDomainCors,
  z,
} from '@xv/platform/http';
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

const failures = { 400: jsonErrorResponse('Missing or malformed session id or body') };
/** The session is named by `?session=` or the header. */
const sessionRequest = { query: sessionQuery, headers: sessionHeaders };
/** A route that waits for the session's turn may find it still taken. */
const turnFailures = { ...failures, 503: jsonErrorResponse('session_busy') };

const stateRoute = createRoute({
  method: 'get',
  path: '/api/state',
  summary: 'The session state',
  request: sessionRequest,
  responses: { 200: jsonResponse('The session state', stateSchema), ...failures },
});

const configRoute = createRoute({
  method: 'post',
  path: '/api/config',
  summary: "Change the session's route, system prompt or tenant",
  request: { ...sessionRequest, body: jsonBody(configBody) },
  responses: {
    200: jsonResponse('Saved', z.object({ ok: z.literal(true), route: routeSchema })),
    ...turnFailures,
  },
});

const resetRoute = createRoute({
  method: 'post',
  path: '/api/reset',
  summary: "Clear the session's conversation history",
  request: sessionRequest,
  responses: { 200: jsonResponse('Cleared', okBody), ...turnFailures },
});

const ticketsRoute = createRoute({
  method: 'get',
  path: '/api/tickets',
  summary:
    "Tickets the caller opened, and their active organization's for holders of tickets:read, newest first",
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
