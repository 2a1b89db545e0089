/**
 * @module ai/completion
 * A plain turn (text messages, no tools, one whole answer) on an OpenAI-compatible
 * endpoint, sent without the AI SDK: one `POST /chat/completions` over a kept-alive
 * connection, reading only the fields used from the answer. For such a turn the
 * SDK's per-call work (prompt validation with zod, request building, the fetch
 * machinery, the response schema) costs several times the call itself.
 * `generateChat` takes this path by itself for models the catalog made; tool turns
 * and streams keep the SDK. Failures are `APICallError`s like the SDK's, so both
 * paths fail alike (`toChatFailure`).
 */
import http from 'node:http';
import https from 'node:https';
import { APICallError, type FinishReason } from 'ai';

/** The OpenAI chat message forms a plain turn sends. */
export interface PlainMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PlainTurn {
  messages: PlainMessage[];
  maxOutputTokens?: number | undefined;
  temperature?: number | undefined;
  signal: AbortSignal;
}

export interface ChatUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
}

export interface PlainAnswer {
  text: string;
  finishReason: FinishReason;
  usage: ChatUsage;
}

/** Sends a plain turn to one model. */
export type PlainCompletion = (turn: PlainTurn) => Promise<PlainAnswer>;

/** The models that can take a plain turn without the SDK, as the catalog made them. */
const plainCompletions = new WeakMap<object, PlainCompletion>();

export function registerPlainCompletion(model: object, completion: PlainCompletion): void {
  plainCompletions.set(model, completion);
}

export function plainCompletionOf(model: unknown): PlainCompletion | undefined {
  return typeof model === 'object' && model !== null ? plainCompletions.get(model) : undefined;
}

/** An answer larger than this is refused (a chat completion is a few kilobytes). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  tool_calls: 'tool-calls',
  function_call: 'tool-calls',
};

/** An idle connection is closed after this long, before a server would close it under a request. */
const IDLE_CONNECTION_MS = 4_000;

/**
 * A client for one OpenAI-compatible endpoint: a keep-alive agent shared by all of
 * its models (idle connections do not keep the process alive; a server's
 * `Keep-Alive: timeout` hint shortens their life, as in `fetch`).
 */
export function openAiCompatibleClient({ baseUrl, apiKey }: { baseUrl: string; apiKey: string }) {
  const url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  // The agent's timeout closes idle connections only; a slow answer on a busy one is left alone.
  const agentOptions = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  const request = secure ? https.request : http.request;
  const options = {
    method: 'POST',
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port,
    path: target.pathname + target.search,
    agent,
  };
  const authorization = `Bearer ${apiKey}`;

  const post = (body: string, signal: AbortSignal) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      // A stop (timeout or caller) keeps its AbortError, so it is told apart from a network failure.
      const fail = (error: Error) => reject(error.name === 'AbortError' ? error : networkError(url, error));
      const req = request(
        {
          ...options,
          signal,
          headers: {
            authorization,
            'user-agent': 'xv',
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_ANSWER_BYTES) {
              const error = new APICallError({
                message: 'The answer is too large',
                url,
                requestBodyValues: undefined,
                statusCode: res.statusCode,
              });
              reject(error);
              req.destroy(error);
            } else chunks.push(chunk);
          });
          res.once('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
          );
          res.once('error', fail);
          // The connection dropped while the answer was coming (a stop reports its own error first).
          res.once('close', () => {
            if (!res.complete) fail(new Error('The answer was cut off.'));
          });
        },
      );
      req.once('error', fail);
      req.end(body);
    });

  return (model: string): PlainCompletion =>
    async ({ messages, maxOutputTokens, temperature, signal }) => {
      const body = JSON.stringify({ model, messages, max_tokens: maxOutputTokens || undefined, temperature });
      const { status, text } = await post(body, signal);
      if (status < 200 || status > 299) {
        throw new APICallError({
          message: `HTTP ${status}`,
          url,
          requestBodyValues: undefined,
          statusCode: status,
          responseBody: text,
        });
      }
      const answer = readAnswer(text);
      if (!answer) {
        throw new APICallError({
          message: 'Invalid JSON response',
          url,
          requestBodyValues: undefined,
          statusCode: status,
          responseBody: text,
        });
      }
      return answer;
    };
}

function networkError(url: string, cause: unknown) {
  return new APICallError({
    message: 'Cannot connect to API',
    url,
    requestBodyValues: undefined,
    cause,
    isRetryable: true,
  });
}

/** The text, finish reason and token counts of a chat completion, or undefined when it is not one. */
function readAnswer(text: string): PlainAnswer | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const choice = (body as { choices?: unknown })?.choices;
  const first = Array.isArray(choice) ? (choice[0] as Record<string, unknown> | undefined) : undefined;
  const message = first?.message as { content?: unknown } | undefined;
  if (typeof message !== 'object' || message === null) return undefined;
  const content = message.content ?? '';
  if (typeof content !== 'string') return undefined;
  const usage = (body as { usage?: Record<string, unknown> | null }).usage;
  const count = (value: unknown) => (typeof value === 'number' ? value : undefined);
  return {
    text: content,
    finishReason: FINISH_REASONS[String(first?.finish_reason)] ?? 'other',
    usage: {
      inputTokens: count(usage?.prompt_tokens),
      outputTokens: count(usage?.completion_tokens),
      totalTokens: count(usage?.total_tokens),
    },
  };
}
