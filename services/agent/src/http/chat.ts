/**
 * @module http/chat
 * `POST /api/chat {message, route}`: streams the answer (`text/plain;
 * charset=utf-8`) once the session's turn comes. The body is read by hand: the
 * spec wants 400 for any body that is not JSON, whatever its content type. The
 * agent's own words in an answer are in the sender's language (`xv_lang`, else
 * `Accept-Language`, else English).
 */
import { platformErrors, type RateLimiter } from '@xv/platform';
import { aiErrors } from '@xv/platform/ai';
import {
  type App,
  access,
  createRoute,
  errorResponses,
  limitByIp,
  requestLocale,
  type SsoClient,
  z,
} from '@xv/platform/http';
import type { Context } from 'hono';
import type { Conversations } from '../chat/conversations.js';
import type { ChatRequest } from '../chat/turn.js';
import { errors } from '../errors.js';
import { outputStream } from './chat-stream.js';
import { principalOf } from './principal.js';
import { chatBody, sessionHeaders, sessionQuery } from './schemas.js';
import { SESSION_HEADER, sessionIdOf } from './session-id.js';

/** How long after the model's own timeout a turn's response may still run (a slow reader). */
const TURN_GRACE_MS = 30_000;

export interface ChatRouteOptions {
  conversations: Conversations;
  maxMessageChars: number;
  /** The model's own timeout: the answer's body may run this long plus a grace. */
  modelTimeoutMs: number;
  chatLimiter: RateLimiter;
  trustProxy: boolean;
  sso: SsoClient;
}

const chatRoute = createRoute({
  method: 'post',
  path: '/api/chat',
  summary: 'Send a message; the answer streams back as plain text',
  security: access.sessionOrAnonymous,
  request: {
    query: sessionQuery.extend({ marks: z.enum(['1']).optional() }),
    headers: sessionHeaders,
    body: {
      required: true,
      content: {
        'application/json': { schema: chatBody, example: { message: 'When do orders ship?' } },
      },
    },
  },
  responses: {
    200: {
      description:
        'The answer, streamed. A new session id is returned in `x-agent-session` when none was sent.',
      content: {
        'text/plain': { schema: z.string(), example: 'Orders ship within two business days.' },
      },
    },
    ...errorResponses(
      errors.empty_message,
      errors.message_too_long,
      errors.invalid_session,
      errors.session_conflict,
      errors.cancelled,
      platformErrors.rate_limited,
      errors.model_failed,
      [aiErrors.ai_unavailable, 'The route names a model that is not configured.'],
      errors.session_busy,
    ),
  },
});

export function registerChatRoute(app: App, options: ChatRouteOptions): void {
  const { conversations } = options;
  app.openAPIRegistry.registerPath(chatRoute);
  app.post('/api/chat', limitByIp(options.chatLimiter, options.trustProxy), async (c) => {
    const sessionId = sessionIdOf(c, { generate: true });
    const request = await readChatRequest(c, options.maxMessageChars);
    const principal = await principalOf(c, options.sso);
    const clientGone = followAbort(c.req.raw.signal);
    const started = conversations.startAnswer(principal, sessionId, request, clientGone.signal);
    const { turn, outputs, first } = await started.catch((error) => {
      clientGone.unlink();
      throw error;
    });
    const logger = c.get('logger');
    const body = outputStream(first, outputs, c.req.query('marks') === '1', {
      deadlineMs: options.modelTimeoutMs + TURN_GRACE_MS,
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
    throw platformErrors.invalid_json();
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw platformErrors.invalid_json('The request body must be a JSON object.');
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
  // The agent's own words in the answer (without a model, its labels) follow the sender's language.
  return { message: parsed.data.message, route: parsed.data.route, locale: requestLocale(c) };
}
