/**
 * @module routes/api
 * The agent API as the spec lists it. The session is chosen by `?session=` or
 * the `x-agent-session` header, within the caller's own sessions (see
 * `principal.ts`): the same id from another owner is another session.
 *
 * | route | does |
 * |---|---|
 * | POST /api/chat {message, route} | streams the answer (`text/plain; charset=utf-8`); waits its turn |
 * | GET /api/state | the session: tenant, route, systemPrompt, messageCount, messages |
 * | POST /api/config {route, systemPrompt, tenant} | `{ok:true, route}` |
 * | POST /api/reset | `{ok:true}`: the conversation is forgotten, the settings stay |
 * | GET /api/tickets | tickets the caller opened, and their active organization's with `tickets:read` |
 */

import { type PublicOrganizations, platformErrors, type RateLimiter } from '@xv/platform';
import type { ModelCatalog } from '@xv/platform/ai';
import { type App, createRoute, limitByIp, type SsoClient, sharedDomainCors, z } from '@xv/platform/http';
import type { Context } from 'hono';
import { type ChatDependencies, type ChatRequest, effectiveRoute, startChatTurn } from '../chat/turn.js';
import { errors } from '../errors.js';
import { type Principal, principalOf, sessionKey } from '../principal.js';
import { type SessionTurn, TurnWaitTimeout } from '../sessions/actor.js';
import type { SessionRegistry } from '../sessions/registry.js';
import type { SessionStore } from '../sessions/store.js';
import { accessTo, checkTenantChoice, sessionDefaults } from '../tenancy.js';
import type { TicketDesk } from '../tools/tickets.js';
import { outputStream } from './chat-stream.js';
import {
  chatBody,
  configBody,
  errorSchema,
  routeSchema,
  sessionQuery,
  stateSchema,
  ticketSchema,
} from './schemas.js';
import { SESSION_HEADER, sessionIdOf } from './session-id.js';

/** The permission that shows a member their organization's tickets (admins and support). */
const TICKETS_READ = 'tickets:read';

/** How long after the model's own timeout a turn's response may still run (a slow reader). */
const TURN_GRACE_MS = 30_000;

export interface AgentApi {
  registry: SessionRegistry;
  store: SessionStore;
  tickets: TicketDesk;
  catalog: ModelCatalog;
  chat: ChatDependencies;
  maxMessageChars: number;
  chatLimiter: RateLimiter;
  trustProxy: boolean;
  sharedDomain: string;
  sso: SsoClient;
  organizations: PublicOrganizations;
}

const sessionHeaders = z.object({ [SESSION_HEADER]: z.string().optional() });
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const failures = {
  400: json(errorSchema, 'Missing or malformed session id or body'),
};
/** The session is named by `?session=` or the header. */
const sessionRequest = { query: sessionQuery, headers: sessionHeaders };
/** A route that waits for the session's turn may find it still taken. */
const turnFailures = { ...failures, 503: json(errorSchema, 'session_busy') };

const chatRoute = createRoute({
  method: 'post',
  path: '/api/chat',
  summary: 'Send a message; the answer streams back as plain text',
  request: {
    query: sessionQuery.extend({ marks: z.enum(['1']).optional() }),
    headers: sessionHeaders,
    body: { required: true, content: { 'application/json': { schema: chatBody } } },
  },
  responses: {
    200: {
      description:
        'The answer, streamed. A new session id is returned in `x-agent-session` when none was sent.',
      content: { 'text/plain': { schema: z.string() } },
    },
    ...failures,
    429: json(errorSchema, 'Too many messages from this address'),
    502: json(errorSchema, 'The model failed before answering'),
    503: json(errorSchema, '`ai_unavailable` (no model configured) or `session_busy`'),
  },
});

const stateRoute = createRoute({
  method: 'get',
  path: '/api/state',
  summary: 'The session state',
  request: sessionRequest,
  responses: { 200: json(stateSchema, 'The session state'), ...failures },
});

const configRoute = createRoute({
  method: 'post',
  path: '/api/config',
  summary: "Change the session's route, system prompt or tenant",
  request: {
    ...sessionRequest,
    body: { required: true, content: { 'application/json': { schema: configBody } } },
  },
  responses: {
    200: json(z.object({ ok: z.literal(true), route: routeSchema }), 'Saved'),
    ...turnFailures,
  },
});

const resetRoute = createRoute({
  method: 'post',
  path: '/api/reset',
  summary: "Clear the session's conversation history",
  request: sessionRequest,
  responses: { 200: json(z.object({ ok: z.literal(true) }), 'Cleared'), ...turnFailures },
});

const ticketsRoute = createRoute({
  method: 'get',
  path: '/api/tickets',
  summary:
    "Tickets the caller opened, and their active organization's for holders of tickets:read, newest first",
  request: sessionRequest,
  responses: {
    200: json(z.object({ ok: z.literal(true), tickets: z.array(ticketSchema) }), 'The tickets'),
    ...failures,
  },
});

export function registerAgentApi(app: App, api: AgentApi): void {
  // Sites under the shared domain may embed the agent.
  app.use('/api/*', sharedDomainCors(api.sharedDomain));
  // The chat body is parsed by hand: the spec wants 400 for any body that is not JSON, whatever its content type.
  app.openAPIRegistry.registerPath(chatRoute);
  app.post('/api/chat', limitByIp(api.chatLimiter, api.trustProxy), async (c) => {
    const sessionId = sessionIdOf(c, { generate: true });
    const request = await readChatRequest(c, api.maxMessageChars);
    const principal = await principalOf(c, api.sso);
    const clientGone = followAbort(c.req.raw.signal);
    const started = startAnswer(api, principal, sessionId, request, clientGone.signal);
    const { turn, outputs, first } = await started.catch((error) => {
      clientGone.unlink();
      throw error;
    });
    const logger = c.get('logger');
    const body = outputStream(first, outputs, c.req.query('marks') === '1', {
      deadlineMs: api.chat.settings.timeoutMs + TURN_GRACE_MS,
      onEnd: async () => {
        clientGone.unlink();
        await turn.release();
      },
      onCancel: () => clientGone.abort(),
      onError: (error) => logger.error({ err: error }, 'chat turn failed'),
    });
    return c.body(body, 200, {
      'content-type': 'text/plain; charset=utf-8',
      // Said explicitly, the server streams from the first word instead of pre-reading chunks to size the body.
      'transfer-encoding': 'chunked',
      'cache-control': 'no-store',
      [SESSION_HEADER]: sessionId,
    });
  });

  app.openapi(stateRoute, async (c) => {
    const id = sessionIdOf(c);
    const principal = await principalOf(c, api.sso);
    const key = sessionKey(principal, id);
    const [record, messages] = await Promise.all([api.store.read(key), api.store.messages(key)]);
    return c.json(
      {
        session: id,
        tenant: record?.tenant ?? sessionDefaults(principal).tenant,
        route: effectiveRoute(record ?? { route: null }, api.catalog),
        systemPrompt: record?.systemPrompt ?? api.chat.settings.systemPrompt,
        messageCount: messages.length,
        messages,
      },
      200,
    );
  });

  app.openapi(configRoute, async (c) => {
    const id = sessionIdOf(c);
    const changes = c.req.valid('json');
    const principal = await principalOf(c, api.sso);
    if (changes.tenant !== undefined) await checkTenantChoice(changes.tenant, principal, api.organizations);
    const route = await withTurn(api, principal, id, c, async (turn) => {
      const rev = await api.store.configure(turn.lease, changes);
      turn.update(rev, (s) => {
        if (changes.route) s.route = changes.route;
        if (changes.systemPrompt !== undefined) s.systemPrompt = changes.systemPrompt;
        if (changes.tenant !== undefined) s.tenant = changes.tenant;
      });
      return effectiveRoute(turn.snapshot, api.catalog);
    });
    return c.json({ ok: true as const, route }, 200);
  });

  app.openapi(resetRoute, async (c) => {
    const id = sessionIdOf(c);
    const principal = await principalOf(c, api.sso);
    await withTurn(api, principal, id, c, async (turn) => {
      const rev = await api.store.clearHistory(turn.lease);
      turn.update(rev, (s) => {
        s.window = [];
        s.messageCount = 0;
      });
    });
    return c.json({ ok: true as const }, 200);
  });

  app.openapi(ticketsRoute, async (c) => {
    const session = sessionIdOf(c);
    const principal = await principalOf(c, api.sso);
    const staff =
      principal.kind === 'person' && principal.active?.permissions.includes(TICKETS_READ)
        ? [principal.active.org_id]
        : [];
    const tickets = await api.tickets.list({ owner: principal.owner, session, orgIds: staff });
    return c.json({ ok: true as const, tickets }, 200);
  });
}

/**
 * An AbortController that follows the request's signal until `unlink`. Unlink when
 * done: the runtime keeps a request's signal (and so its listeners) alive until
 * the request object is collected, and a listener that reaches the turn would
 * keep the whole turn alive with it. The listener therefore closes over nothing
 * but the controller.
 */
function followAbort(source: AbortSignal) {
  const controller = new AbortController();
  const stop = () => controller.abort();
  source.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    abort: stop,
    unlink: () => source.removeEventListener('abort', stop),
  };
}

async function readChatRequest(c: Context, maxChars: number): Promise<ChatRequest> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw errors.invalid_json();
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw errors.invalid_json('The request body must be a JSON object.');
  const message = (body as { message?: unknown }).message;
  if (message === undefined || message === null || (typeof message === 'string' && message.trim() === ''))
    throw errors.empty_message();
  const parsed = chatBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw platformErrors.invalid_request(
      issue ? `json.${issue.path.join('.')}: ${issue.message}` : undefined,
    );
  }
  if (parsed.data.message.length > maxChars)
    throw errors.message_too_long(`A message has at most ${maxChars} characters.`);
  return { message: parsed.data.message, route: parsed.data.route };
}

/**
 * Waits for the session's turn and starts the answer. A failure before the first
 * byte (no model configured, the model failing at once) releases the turn and is
 * thrown, so it becomes a plain JSON error.
 */
async function startAnswer(
  api: AgentApi,
  principal: Principal,
  sessionId: string,
  request: ChatRequest,
  signal: AbortSignal,
) {
  const turn = await takeTurn(api, principal, sessionId, signal);
  try {
    // Checked at every turn: a person who left the organization, or an assistant made private, opens nothing.
    const access = await accessTo(turn.snapshot.tenant, principal, api.organizations);
    const caller = { session: sessionId, owner: principal.owner, access };
    const outputs = startChatTurn(api.chat, turn, caller, request, signal);
    const first = await outputs.next();
    if (!first.done && first.value.type === 'failed' && first.value.beforeOutput)
      throw errors.model_failed(`The model failed before answering: ${first.value.message}`);
    return { turn, outputs, first };
  } catch (error) {
    await turn.release();
    throw error;
  }
}

/** Waits for the turn of the caller's session `sessionId`; 503 `session_busy` past the wait limit. */
async function takeTurn(
  api: AgentApi,
  principal: Principal,
  sessionId: string,
  signal?: AbortSignal,
): Promise<SessionTurn> {
  try {
    const actor = api.registry.get(sessionKey(principal, sessionId), sessionDefaults(principal));
    return await actor.acquire(signal);
  } catch (error) {
    if (error instanceof TurnWaitTimeout) throw errors.session_busy();
    // The client left while waiting its turn: nobody reads the answer, and it is no failure of ours.
    if (signal?.aborted) throw errors.cancelled();
    throw error;
  }
}

async function withTurn<T>(
  api: AgentApi,
  principal: Principal,
  sessionId: string,
  c: Context,
  work: (turn: SessionTurn) => Promise<T>,
): Promise<T> {
  const turn = await takeTurn(api, principal, sessionId, c.req.raw.signal);
  try {
    return await work(turn);
  } finally {
    await turn.release();
  }
}
