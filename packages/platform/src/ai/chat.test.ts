import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSettings } from '../settings/settings.js';
import {
  answer,
  callTool,
  cutOff,
  fail,
  type ModelServer,
  stall,
  startModelServer,
} from '../testing/model-server.js';
import { type ChatEvent, ChatFailure, generateChat, streamChat } from './chat.js';
import { tool } from './index.js';
import { createModelCatalog, type ModelCatalog } from './models.js';
import { modelSettingsSpec } from './settings.js';

let server: ModelServer;
let catalog: ModelCatalog;

beforeAll(async () => {
  server = await startModelServer({ apiKey: 'model-key' });
  catalog = createModelCatalog(
    loadSettings(modelSettingsSpec, {
      MODEL_BASE_URL: server.baseUrl,
      MODEL_API_KEY: 'model-key',
      MODEL_NAME: 'scripted',
      XV_WORKERS_AI_ACCOUNT_ID: 'acc123',
      XV_WORKERS_AI_TOKEN: 'model-key',
      XV_WORKERS_AI_BASE_URL: server.workersAiBaseUrl,
    }),
  );
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const user = (content: string) => [{ role: 'user' as const, content }];
const add = tool({
  description: 'Adds two numbers',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});
const broken = tool({
  description: 'Always fails',
  inputSchema: z.object({}),
  execute: async (): Promise<{ ok: boolean }> => {
    throw new Error('the backend is down');
  },
});

async function collect(events: AsyncIterable<ChatEvent>) {
  const all: ChatEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
const textOf = (events: ChatEvent[]) => events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');

describe('the scripted model server', () => {
  it('refuses a wrong bearer key with 401', async () => {
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect((await fetch(`${server.baseUrl}/models`)).status).toBe(401);
  });

  it('lists models', async () => {
    const response = await fetch(`${server.baseUrl}/models`, {
      headers: { authorization: 'Bearer model-key' },
    });
    expect((await response.json()).data[0].id).toBe('scripted');
  });

  it('speaks SSE with data lines and [DONE]', async () => {
    server.script(answer('hello there', { chunks: 2 }));
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer model-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'scripted', stream: true, messages: user('hi') }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const lines = (await response.text()).split('\n\n').filter(Boolean);
    expect(lines.at(-1)).toBe('data: [DONE]');
    const chunks = lines.slice(0, -1).map((l) => JSON.parse(l.slice('data: '.length)));
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('hello there');
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1).usage.total_tokens).toBeGreaterThan(0);
  });

  it('plays per-model queues before the shared one, and fails loudly when the script is empty', async () => {
    server.script(answer('shared'), { model: 'special' }, answer('special'));
    expect(
      (await generateChat({ model: catalog.resolve('openai-compatible:special'), messages: user('x') })).text,
    ).toBe('special');
    expect((await generateChat({ model: catalog.resolve(), messages: user('x') })).text).toBe('shared');
    await expect(generateChat({ model: catalog.resolve(), messages: user('x') })).rejects.toMatchObject({
      kind: 'http',
      status: 500,
    });
  });
});

describe('streamChat over the OpenAI-compatible provider', () => {
  it('streams the answer in pieces and reports the finish', async () => {
    server.script(answer('one two three'));
    const events = await collect(streamChat({ model: catalog.resolve(), messages: user('count') }));
    expect(events.filter((e) => e.type === 'text').length).toBe(3);
    expect(textOf(events)).toBe('one two three');
    expect(events.at(-1)).toMatchObject({ type: 'finish', text: 'one two three', steps: 1 });
    expect(server.requests[0]).toMatchObject({ model: 'scripted', stream: true });
    expect(server.requests[0]!.messages).toEqual([{ role: 'user', content: 'count' }]);
  });

  it('runs a tool and gives its result back to the model', async () => {
    server.script(callTool('add', { a: 2, b: 3 }), answer('It is 5.'));
    const events = await collect(
      streamChat({ model: catalog.resolve(), messages: user('2+3?'), tools: { add } }),
    );
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      toolName: 'add',
      output: { sum: 5 },
    });
    expect(events.at(-1)).toMatchObject({ type: 'finish', text: 'It is 5.', steps: 2, toolNames: ['add'] });
    expect(server.requests[0]!.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'add',
    ]);
    const toolMessage = server.requests[1]!.messages.find((m: { role: string }) => m.role === 'tool');
    expect(JSON.parse(toolMessage.content)).toEqual({ sum: 5 });
  });

  it('reports a failing tool and invalid tool arguments to the model instead of crashing', async () => {
    server.script(callTool('broken', {}), callTool('add', { a: 'two' }), answer('Sorry.'));
    const events = await collect(
      streamChat({ model: catalog.resolve(), messages: user('go'), tools: { add, broken } }),
    );
    expect(
      events.filter((e) => e.type === 'tool-error').map((e) => e.type === 'tool-error' && e.toolName),
    ).toEqual(['broken', 'add']);
    expect(events.at(-1)).toMatchObject({ type: 'finish', text: 'Sorry.' });
    const seen = JSON.stringify(server.requests[2]!.messages);
    expect(seen).toContain('the backend is down');
  });

  it('stops the tool loop after 5 steps', async () => {
    for (let i = 0; i < 7; i++) server.script(callTool('add', { a: i, b: 1 }));
    const events = await collect(
      streamChat({ model: catalog.resolve(), messages: user('loop'), tools: { add } }),
    );
    expect(server.requests).toHaveLength(5);
    expect(events.at(-1)).toMatchObject({ type: 'finish', steps: 5, finishReason: 'tool-calls' });
  });

  it('ends with an error event when the model fails before answering', async () => {
    server.script(fail(503));
    const events = await collect(streamChat({ model: catalog.resolve(), messages: user('x') }));
    expect(events).toHaveLength(1);
    const last = events[0]!;
    expect(last.type === 'error' && last.failure).toMatchObject({ kind: 'http', status: 503 });
  });

  it('ends with an error event after the text so far when the stream is cut off', async () => {
    server.script(cutOff('partial answer '));
    const events = await collect(streamChat({ model: catalog.resolve(), messages: user('x') }));
    expect(textOf(events)).toBe('partial answer ');
    expect(events.at(-1)?.type).toBe('error');
  });

  it('aborts the model request when the signal fires', async () => {
    server.script(stall());
    const controller = new AbortController();
    const events = collect(
      streamChat({ model: catalog.resolve(), messages: user('x'), abortSignal: controller.signal }),
    );
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    const last = (await events).at(-1)!;
    expect(last.type === 'error' && last.failure.kind).toBe('aborted');
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('gives up after the timeout', async () => {
    server.script(stall());
    const events = await collect(
      streamChat({ model: catalog.resolve(), messages: user('x'), timeoutMs: 200 }),
    );
    const last = events.at(-1)!;
    expect(last.type === 'error' && last.failure.kind).toBe('timeout');
  });
});

describe('generateChat', () => {
  it('returns the whole answer after tool steps', async () => {
    server.script(callTool('add', { a: 1, b: 1 }), answer('Two.'));
    const result = await generateChat({ model: catalog.resolve(), messages: user('1+1'), tools: { add } });
    expect(result).toMatchObject({ text: 'Two.', steps: 2, toolNames: ['add'] });
    expect(server.requests.every((r) => !r.stream)).toBe(true);
  });

  it('throws a ChatFailure that names the HTTP status and nothing secret', async () => {
    server.script(fail(500, 'internal detail sk-123'));
    const error = await generateChat({ model: catalog.resolve(), messages: user('x') }).catch((e) => e);
    expect(error).toBeInstanceOf(ChatFailure);
    expect(error.message).toBe('The model answered with HTTP 500.');
  });
});

describe('the workers-ai provider against a Workers AI-compatible endpoint', () => {
  it('generates text and calls tools', async () => {
    server.script(callTool('add', { a: 4, b: 4 }), answer('Eight.'));
    const model = catalog.resolve('workers-ai:@cf/meta/llama-3.1-8b-instruct');
    const result = await generateChat({ model, messages: user('4+4'), tools: { add } });
    expect(result.text).toBe('Eight.');
    expect(server.requests[0]).toMatchObject({
      provider: 'workers-ai',
      model: '@cf/meta/llama-3.1-8b-instruct',
    });
  });

  it('streams tool calls and the answer', async () => {
    server.script(callTool('add', { a: 20, b: 22 }), answer('Forty-two.'));
    const events = await collect(
      streamChat({
        model: catalog.resolve('workers-ai:@cf/meta/llama-3.1-8b-instruct'),
        messages: user('20+22'),
        tools: { add },
      }),
    );
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ output: { sum: 42 } });
    expect(events.at(-1)).toMatchObject({ type: 'finish', text: 'Forty-two.', steps: 2 });
    expect(server.requests.every((r) => r.provider === 'workers-ai' && r.stream)).toBe(true);
  });

  it('streams text', async () => {
    server.script(answer('edge says hi'));
    const events = await collect(
      streamChat({
        model: catalog.resolve('workers-ai:@cf/meta/llama-3.1-8b-instruct'),
        messages: user('x'),
      }),
    );
    expect(textOf(events)).toBe('edge says hi');
    expect(events.at(-1)?.type).toBe('finish');
  });
});

async function waitFor(condition: () => boolean) {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!condition()) throw new Error('condition not met');
}
