/**
 * @module testing/model-server
 * A scripted language model for tests, benchmarks and offline demos: a real HTTP
 * server on a free loopback port that speaks the OpenAI chat-completions wire
 * protocol (and, for the `workers-ai` provider, the Workers AI REST API), so the
 * code under test goes through its real provider, HTTP client and stream parser.
 * It is a test and dev tool, never a production default.
 *
 * ```ts
 * const model = await startModelServer({ apiKey: 'test-key' });
 * // MODEL_BASE_URL=model.baseUrl  MODEL_API_KEY=test-key  MODEL_NAME=any
 * model.script(callTool('estimateAiRoi', { department: 'sales', headcount: 5 }), answer('Done.'));
 * model.script({ model: 'slow-model' }, stall());          // only requests naming that model
 * … run the code …
 * model.requests[1].messages  // what the model saw on its second call (tool results included)
 * await model.close();
 * ```
 *
 * Each request takes the next step from the queue of its model name (if one was
 * scripted) or else from the shared queue; with both empty it plays `fallback`
 * (default: a 500 saying the script ran out, so a test never passes by accident).
 * Steps:
 * - `answer(text, { chunks, delayMs })`: the assistant says `text`; streamed as
 *   `chunks` pieces (default: word by word) with `delayMs` between them.
 * - `callTool(name, args, { id })` / `callTools([...])`: the assistant asks for tool
 *   calls (`finish_reason: "tool_calls"`).
 * - `fail(status, message)`: an HTTP error with an OpenAI-style error body.
 * - `stall(ms)`: waits `ms` (forever by default) before answering at all, until
 *   the client goes away.
 * - `cutOff(text)`: streams `text`, then drops the connection without `[DONE]`
 *   (a model failing in the middle of a stream).
 * - `reply((request) => step)`: decides the step when the request arrives, from what
 *   the model is shown (`request.messages`, tool results included), e.g. an answer
 *   quoting the passage a tool returned.
 *
 * Routes: `POST /v1/chat/completions` (`stream: false` JSON or `stream: true` SSE
 * with `data: {chunk}` lines ending in `data: [DONE]`, usage on the last chunk),
 * `GET /v1/models`, and `POST /client/v4/accounts/:account/ai/run/:model` (Workers
 * AI: `{result:{response, tool_calls, usage}, success}` or SSE of `{response}`
 * chunks; point `XV_WORKERS_AI_BASE_URL` at `workersAiBaseUrl`). Every route
 * checks `Authorization: Bearer <apiKey>` and answers 401 otherwise.
 * `requests` records every chat request (model, messages, tools, stream flag,
 * provider) and whether the client hung up before the answer was complete.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ToolCallScript {
  name: string;
  args: unknown;
  id?: string;
}

export type ModelStep =
  | { kind: 'answer'; text: string; chunks?: number; delayMs?: number }
  | { kind: 'tools'; calls: ToolCallScript[] }
  | { kind: 'fail'; status: number; message: string }
  | { kind: 'stall'; ms: number }
  | { kind: 'cutOff'; text: string }
  | { kind: 'reply'; build: (request: ModelRequestView) => ModelStep | Promise<ModelStep> };

/** What a `reply` step is shown of the request it answers. */
export interface ModelRequestView {
  model: string;
  // biome-ignore lint/suspicious/noExplicitAny: the wire messages as the client sent them.
  messages: any[];
  // biome-ignore lint/suspicious/noExplicitAny: the wire tool declarations as sent.
  tools: any[];
}

export const answer = (text: string, options: { chunks?: number; delayMs?: number } = {}): ModelStep => ({
  kind: 'answer',
  text,
  ...options,
});
export const callTool = (name: string, args: unknown, options: { id?: string } = {}): ModelStep => ({
  kind: 'tools',
  calls: [{ name, args, ...options }],
});
export const callTools = (calls: ToolCallScript[]): ModelStep => ({ kind: 'tools', calls });
export const fail = (status = 500, message = 'The scripted model failed.'): ModelStep => ({
  kind: 'fail',
  status,
  message,
});
export const stall = (ms = Number.POSITIVE_INFINITY): ModelStep => ({ kind: 'stall', ms });
export const cutOff = (text: string): ModelStep => ({ kind: 'cutOff', text });
export const reply = (build: (request: ModelRequestView) => ModelStep | Promise<ModelStep>): ModelStep => ({
  kind: 'reply',
  build,
});

export interface RecordedModelRequest {
  provider: 'openai' | 'workers-ai';
  model: string;
  stream: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the wire messages as the client sent them.
  messages: any[];
  // biome-ignore lint/suspicious/noExplicitAny: the wire tool declarations as sent.
  tools: any[];
  /** The step that answered it (for a `reply`, the step it built). */
  step: ModelStep;
  /** True when the client hung up before the answer was complete. */
  aborted: boolean;
  /** Resolves when the answer is complete or the client went away. */
  done: Promise<void>;
}

export interface ModelServerOptions {
  apiKey?: string;
  /** Played when no scripted step is left (default: a 500 naming the problem). */
  fallback?: ModelStep;
  /** Keep no request records (benchmarks with many requests). */
  record?: boolean;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The OpenAI-compatible base URL (`<url>/v1`), for `MODEL_BASE_URL`. */
  baseUrl: string;
  /** The Workers AI REST base URL (`<url>/client/v4`), for `XV_WORKERS_AI_BASE_URL`. */
  workersAiBaseUrl: string;
  apiKey: string;
  requests: RecordedModelRequest[];
  /** Appends steps to the shared queue, or to one model's queue with `{ model }` first. */
  script(...steps: (ModelStep | { model: string })[]): void;
  /** Steps not played yet, across all queues. */
  pending(): number;
  /** Forgets the queues and the recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

const SHARED = '';

export async function startModelServer(options: ModelServerOptions = {}): Promise<ModelServer> {
  const apiKey = options.apiKey ?? 'test-model-key';
  const fallback = options.fallback ?? fail(500, 'The model server has no scripted step left.');
  const queues = new Map<string, ModelStep[]>();
  const requests: RecordedModelRequest[] = [];
  const open = new Set<ServerResponse>();

  const nextStep = (model: string): ModelStep =>
    queues.get(model)?.shift() ?? queues.get(SHARED)?.shift() ?? fallback;

  const server: Server = createServer(async (req, res) => {
    open.add(res);
    res.once('close', () => open.delete(res));
    try {
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        return sendJson(res, 401, { error: { message: 'Invalid API key.', type: 'invalid_request_error' } });
      }
      const path = (req.url ?? '/').split('?')[0]!;
      if (req.method === 'GET' && path === '/v1/models') {
        const models = [...new Set(['scripted', ...[...queues.keys()].filter(Boolean)])];
        return sendJson(res, 200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', owned_by: 'xv' })),
        });
      }
      const workersRoute = /^\/client\/v4\/accounts\/[^/]+\/ai\/run\/(.+)$/.exec(path);
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && !workersRoute)) {
        return sendJson(res, 404, { error: { message: 'Not found.' } });
      }
      const body = JSON.parse((await readBody(req)) || '{}');
      const model = workersRoute ? decodeURIComponent(workersRoute[1]!) : String(body.model ?? '');
      let step = nextStep(model);
      while (step.kind === 'reply')
        step = await step.build({ model, messages: body.messages ?? [], tools: body.tools ?? [] });
      let finish: () => void = () => {};
      const record: RecordedModelRequest = {
        provider: workersRoute ? 'workers-ai' : 'openai',
        model,
        stream: body.stream === true,
        messages: body.messages ?? [],
        tools: body.tools ?? [],
        step,
        aborted: false,
        done: new Promise<void>((resolve) => {
          finish = resolve;
        }),
      };
      if (options.record !== false) requests.push(record);
      res.once('close', () => {
        if (!res.writableFinished) record.aborted = true;
        finish();
      });
      await play(step, res, { model, stream: record.stream, workers: Boolean(workersRoute) });
    } catch (error) {
      if (!res.headersSent) sendJson(res, 400, { error: { message: String(error) } });
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    workersAiBaseUrl: `${url}/client/v4`,
    apiKey,
    requests,
    script(...items) {
      let queue = SHARED;
      for (const item of items) {
        if (!('kind' in item)) {
          queue = item.model;
          continue;
        }
        if (!queues.has(queue)) queues.set(queue, []);
        queues.get(queue)!.push(item);
      }
    },
    pending: () => [...queues.values()].reduce((sum, q) => sum + q.length, 0),
    reset() {
      queues.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface PlayContext {
  model: string;
  stream: boolean;
  workers: boolean;
}

async function play(step: ModelStep, res: ServerResponse, context: PlayContext): Promise<void> {
  if (step.kind === 'reply') throw new Error('a reply step is built before it is played');
  if (step.kind === 'fail') {
    return sendJson(res, step.status, {
      error: { message: step.message, type: 'server_error', code: step.status },
      ...(context.workers ? { success: false, errors: [{ code: step.status, message: step.message }] } : {}),
    });
  }
  if (step.kind === 'stall') {
    await waitOrHangUp(res, step.ms);
    if (res.destroyed) return;
    return play(answer(''), res, context);
  }
  const text = step.kind === 'tools' ? '' : step.text;
  const calls = (step.kind === 'tools' ? step.calls : []).map((call) => ({
    id: call.id ?? `call_${randomBytes(6).toString('hex')}`,
    name: call.name,
    arguments: JSON.stringify(call.args ?? {}),
  }));
  const usage = {
    prompt_tokens: 10,
    completion_tokens: Math.max(1, text.split(/\s+/).length),
    total_tokens: 10 + Math.max(1, text.split(/\s+/).length),
  };
  const finishReason = calls.length > 0 ? 'tool_calls' : 'stop';

  if (!context.stream) {
    if (context.workers) {
      return sendJson(res, 200, {
        result: {
          response: text,
          tool_calls: calls.map((c) => ({ name: c.name, arguments: JSON.parse(c.arguments) })),
          usage,
        },
        success: true,
        errors: [],
        messages: [],
      });
    }
    return sendJson(res, 200, {
      id: `chatcmpl-${randomBytes(6).toString('hex')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: context.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: calls.length > 0 ? null : text,
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: c.name, arguments: c.arguments },
                  })),
                }
              : {}),
          },
          finish_reason: finishReason,
        },
      ],
      usage,
    });
  }

  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const id = `chatcmpl-${randomBytes(6).toString('hex')}`;
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    context.workers
      ? extra
      : {
          id,
          object: 'chat.completion.chunk',
          created: Math.floor(Date.now() / 1000),
          model: context.model,
          choices: [{ index: 0, delta, finish_reason: finish }],
          ...extra,
        };
  const send = (data: object | string) =>
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);

  const pieces = splitText(text, step.kind === 'answer' ? step.chunks : undefined);
  const delayMs = step.kind === 'answer' ? (step.delayMs ?? 0) : 0;
  for (const [index, piece] of pieces.entries()) {
    if (res.destroyed) return;
    if (index > 0 && delayMs > 0) await waitOrHangUp(res, delayMs);
    if (res.destroyed) return;
    send(context.workers ? { response: piece } : chunk({ role: 'assistant', content: piece }));
  }
  if (step.kind === 'cutOff') {
    // Let the pieces reach the client, then drop the connection mid-stream.
    await new Promise((resolve) => setTimeout(resolve, 20));
    res.destroy();
    return;
  }
  for (const [index, call] of calls.entries()) {
    const toolCall = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    if (context.workers) {
      send({
        tool_calls: [{ ...toolCall, function: { name: call.name, arguments: call.arguments } }],
      });
    } else {
      send(chunk({ role: 'assistant', content: null, tool_calls: [toolCall] }));
      send(chunk({ tool_calls: [{ index, function: { arguments: call.arguments } }] }));
    }
  }
  send(context.workers ? { response: '', usage } : chunk({}, finishReason, { usage }));
  send('[DONE]');
  res.end();
}

function splitText(text: string, chunks?: number): string[] {
  if (text === '') return [];
  if (!chunks) return text.match(/\S+\s*|\s+/g) ?? [text];
  const size = Math.ceil(text.length / chunks);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

function waitOrHangUp(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      if (timer) clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    res.once('close', done);
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part) => {
      body += part;
    });
    req.once('end', () => resolve(body));
    req.once('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
