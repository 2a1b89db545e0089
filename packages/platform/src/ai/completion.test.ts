import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../testing/index.js';
import { answer, fail, type ModelServer, stall, startModelServer } from '../testing/model-server.js';
import { type ChatOptions, generateChat } from './chat.js';
import { createModelCatalog, type ModelCatalog } from './models.js';
import type { ModelSettings } from './settings.js';

const settings = (baseUrl: string, apiKey: string) =>
  ({ modelBaseUrl: baseUrl, modelApiKey: apiKey, modelName: 'scripted' }) as ModelSettings;
const user = (content: string) => [{ role: 'user' as const, content }];
/** The answer's text, or the failure's kind, status and sentence. */
const outcome = (
  options: ChatOptions,
): Promise<{ text?: string; kind?: string; status?: number; message?: string }> =>
  generateChat(options).then(
    (result) => ({ text: result.text }),
    (error) => ({ kind: error.kind, status: error.status, message: error.message }),
  );

describe('a plain turn on an OpenAI-compatible model (no SDK in the way)', () => {
  let server: ModelServer;
  let catalog: ModelCatalog;
  beforeAll(async () => {
    server = await startModelServer({ apiKey: 'model-key' });
    catalog = createModelCatalog(settings(server.baseUrl, 'model-key'));
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('sends the system prompt and the messages, and reads the text, finish reason and usage', async () => {
    server.script(answer('Paris is the capital.'));
    const result = await generateChat({
      model: catalog.resolve(),
      system: 'Answer briefly.',
      messages: [
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: 'Which country?' },
        { role: 'user', content: 'France.' },
      ],
      maxOutputTokens: 64,
      temperature: 0.2,
    });
    expect(result).toEqual({
      text: 'Paris is the capital.',
      steps: 1,
      finishReason: 'stop',
      toolNames: [],
      usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 },
    });
    expect(server.requests[0]).toMatchObject({ model: 'scripted', stream: false });
    expect(server.requests[0]!.messages).toEqual([
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: 'Which country?' },
      { role: 'user', content: 'France.' },
    ]);
  });

  it('fails as the SDK path does: HTTP status, timeout, and the same sentences', async () => {
    const sdkModel = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: server.baseUrl,
      apiKey: 'model-key',
    }).chatModel('scripted');
    for (const step of [fail(500, 'secret detail'), fail(429), stall()]) {
      server.script(step, step);
      const options = { messages: user('x'), timeoutMs: 300 };
      const results = [
        await outcome({ model: catalog.resolve(), ...options }),
        await outcome({ model: sdkModel, ...options }),
      ];
      expect(results[0]).toEqual(results[1]);
      expect(results[0]!.message).not.toContain('secret');
    }
  });

  it('hangs up on the model when the caller stops', async () => {
    server.script(stall());
    const controller = new AbortController();
    const turn = outcome({ model: catalog.resolve(), messages: user('x'), abortSignal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await turn).toMatchObject({ kind: 'aborted' });
    await server.requests[0]!.done;
    expect(server.requests[0]!.aborted).toBe(true);
  });

  it('leaves messages made of parts to the SDK, which still answers them', async () => {
    server.script(answer('From parts.'));
    const result = await generateChat({
      model: catalog.resolve(),
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
    });
    expect(result.text).toBe('From parts.');
    expect(server.requests[0]!.messages).toEqual([{ role: 'user', content: 'hello' }]);
  });
});

describe('a plain turn against a misbehaving endpoint', () => {
  let server: Server;
  let catalog: ModelCatalog;
  let connections = 0;
  const answers: ((res: ServerResponse) => void)[] = [];
  const json = (status: number, body: string) => (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const completion = (content: unknown) =>
    json(
      200,
      JSON.stringify({ choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
    );

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.once('end', () => (answers.shift() ?? json(500, '{}'))(res));
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    catalog = createModelCatalog(settings(`http://127.0.0.1:${port}/v1/`, 'key'));
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('sends every turn on one kept-alive connection', async () => {
    const before = connections;
    for (let i = 0; i < 20; i += 1) {
      answers.push(completion(`answer ${i}`));
      expect((await generateChat({ model: catalog.resolve(), messages: user('x') })).text).toBe(
        `answer ${i}`,
      );
    }
    expect(connections - before).toBeLessThanOrEqual(1);
  });

  it('refuses an answer that is not a chat completion, as the SDK does', async () => {
    const sdkModel = createOpenAICompatible({
      name: 'openai-compatible',
      baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      apiKey: 'key',
    }).chatModel('scripted');
    for (const bad of [json(200, 'not json'), json(200, '{"choices":[{}]}'), completion(42)]) {
      answers.push(bad, bad);
      const plain = await outcome({ model: catalog.resolve(), messages: user('x') });
      const sdk = await outcome({ model: sdkModel, messages: user('x') });
      expect(plain).toEqual({ kind: 'other', message: 'The model sent an answer that could not be read.' });
      expect(sdk).toEqual(plain);
    }
  });

  it('reads an empty answer as empty text, and a cut-off one as a network failure', async () => {
    answers.push(completion(null));
    expect(await outcome({ model: catalog.resolve(), messages: user('x') })).toEqual({ text: '' });
    answers.push((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"choices":');
      setTimeout(() => res.destroy(), 10);
    });
    expect(await outcome({ model: catalog.resolve(), messages: user('x') })).toMatchObject({
      kind: 'network',
    });
  });

  it('refuses an answer larger than 8 MiB without keeping it', async () => {
    answers.push(json(200, `{"choices":[{"message":{"content":"${'x'.repeat(9 * 1024 * 1024)}"}}]}`));
    expect(await outcome({ model: catalog.resolve(), messages: user('x') })).toMatchObject({ kind: 'other' });
  });

  it('reports a model that cannot be reached as a network failure', async () => {
    const closed = createModelCatalog(settings(`http://127.0.0.1:${await freePort()}/v1`, 'key'));
    expect(await outcome({ model: closed.resolve(), messages: user('x') })).toEqual({
      kind: 'network',
      message: 'The model could not be reached.',
    });
  });
});
