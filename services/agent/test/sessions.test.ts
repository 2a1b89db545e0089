import { type Database, openDatabase } from '@xv/platform';
import { answer, describeEachDatabase, type ModelServer, startModelServer } from '@xv/platform/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { chat, MODEL_KEY, modelEnv, newSession, seen, startAgent, state, until } from './helpers.js';

const extraHandles: Database[] = [];
afterAll(async () => {
  for (const handle of extraHandles.splice(0)) await handle.close();
});

/** A second connection (pool) to the same database: what another instance would have. */
async function secondHandle(database: Database): Promise<Database> {
  const handle = database.pool
    ? await openDatabase({
        service: 'agent',
        url: process.env.XV_TEST_DATABASE_URL!,
        schema: database.schema!,
        poolSize: 4,
      })
    : await openDatabase({ service: 'agent', file: database.file! });
  extraHandles.push(handle);
  return handle;
}

/** Every pair of the history is one question and the answer the model gave to exactly that question. */
function expectConsistentPairs(model: ModelServer, messages: { role: string; content: string }[]) {
  const answerTo = new Map<string, string>();
  for (const request of model.requests) {
    const question = request.messages.at(-1).content as string;
    answerTo.set(question, request.step.kind === 'answer' ? request.step.text : '');
  }
  for (let i = 0; i < messages.length; i += 2) {
    expect(messages[i]!.role).toBe('user');
    expect(messages[i + 1]!.role).toBe('assistant');
    expect(messages[i + 1]!.content).toBe(answerTo.get(messages[i]!.content));
  }
}

describeEachDatabase('agent sessions', (target) => {
  let model: ModelServer;

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
  });
  afterAll(() => model.close());
  beforeEach(() => model.reset());

  it('handles messages to one session one at a time, in arrival order', async () => {
    const agent = await startAgent(await target.open('agent'), modelEnv(model));
    const session = newSession();
    model.script(answer('slow first answer', { delayMs: 40 }), answer('second answer'));
    const first = chat(agent, session, 'first');
    await until(() => model.requests.length === 1, 'the first model request');
    const second = chat(agent, session, 'second');
    expect(await first).toBe('slow first answer');
    expect(await second).toBe('second answer');
    expect(seen(model.requests[1]!.messages).slice(1)).toEqual([
      'user:first',
      'assistant:slow first answer',
      'user:second',
    ]);
  });

  it('keeps the history consistent under a burst of concurrent messages', async () => {
    const agent = await startAgent(await target.open('agent'), modelEnv(model));
    const session = newSession();
    for (let i = 0; i < 6; i++) model.script(answer(`answer ${i}`, { delayMs: 3 }));
    await Promise.all(Array.from({ length: 6 }, (_, i) => chat(agent, session, `question ${i}`)));
    model.requests.forEach((request, k) => {
      expect(request.messages.length).toBe(1 + 2 * k + 1);
    });
    const { messages } = await state(agent, session);
    expect(messages).toHaveLength(12);
    expectConsistentPairs(model, messages);
  });

  it('loses nothing across a restart on the same database', async () => {
    const database = await target.open('agent');
    const session = newSession();
    const before = await startAgent(database, modelEnv(model));
    await before.fetch(`/api/config?session=${session}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant: 'acme', systemPrompt: 'Remember everything.' }),
    });
    model.script(answer('noted'), answer('you said blue'));
    await chat(before, session, 'my favourite colour is blue');
    await before.close();

    const after = await startAgent(database, modelEnv(model));
    expect(await state(after, session)).toMatchObject({
      tenant: 'acme',
      systemPrompt: 'Remember everything.',
      messageCount: 2,
    });
    await chat(after, session, 'what is my favourite colour?');
    expect(seen(model.requests[1]!.messages)).toEqual([
      'system:Remember everything.',
      'user:my favourite colour is blue',
      'assistant:noted',
      'user:what is my favourite colour?',
    ]);
  });

  it('brings an evicted session object back from the database', async () => {
    const agent = await startAgent(await target.open('agent'), modelEnv(model, { XV_AGENT_MAX_ACTORS: '1' }));
    const [a, b] = [newSession('a'), newSession('b')];
    model.script(answer('a1'), answer('b1'), answer('a2'));
    await chat(agent, a, 'a question');
    await chat(agent, b, 'b question');
    await chat(agent, a, 'a again');
    expect(seen(model.requests[2]!.messages).slice(1)).toEqual([
      'user:a question',
      'assistant:a1',
      'user:a again',
    ]);
  });

  it('shows the model only the latest history but keeps all of it', async () => {
    const agent = await startAgent(
      await target.open('agent'),
      modelEnv(model, { XV_AGENT_HISTORY_MESSAGES: '4', XV_AGENT_HISTORY_CHARS: '1000' }),
    );
    const session = newSession();
    for (let i = 0; i < 4; i++) model.script(answer(`a${i}`));
    for (let i = 0; i < 4; i++) await chat(agent, session, `q${i}`);
    expect(seen(model.requests[3]!.messages).slice(1)).toEqual([
      'user:q1',
      'assistant:a1',
      'user:q2',
      'assistant:a2',
      'user:q3',
    ]);
    expect((await state(agent, session)).messageCount).toBe(8);
  });

  it('drops the oldest history past the character budget', async () => {
    const agent = await startAgent(
      await target.open('agent'),
      modelEnv(model, { XV_AGENT_HISTORY_CHARS: '25' }),
    );
    const session = newSession();
    model.script(answer('a'.repeat(10)), answer('b'.repeat(10)), answer('done'));
    await chat(agent, session, 'q'.repeat(10));
    await chat(agent, session, 'r'.repeat(10));
    await chat(agent, session, 'last');
    expect(seen(model.requests[2]!.messages).slice(1)).toEqual([
      `user:${'r'.repeat(10)}`,
      `assistant:${'b'.repeat(10)}`,
      'user:last',
    ]);
  });

  it('serializes turns of one session across two instances on one database', async () => {
    const database = await target.open('agent');
    const one = await startAgent(database, modelEnv(model));
    const two = await startAgent(await secondHandle(database), modelEnv(model));
    const session = newSession();
    for (let i = 0; i < 8; i++) model.script(answer(`answer ${i}`, { delayMs: 5 }));
    await Promise.all(Array.from({ length: 8 }, (_, i) => chat(i % 2 ? two : one, session, `question ${i}`)));
    // Each call saw every earlier turn complete: never two turns at once.
    model.requests.forEach((request, k) => {
      expect(request.messages.length).toBe(1 + 2 * k + 1);
    });
    for (const agent of [one, two]) {
      const { messages } = await state(agent, session);
      expect(messages).toHaveLength(16);
      expectConsistentPairs(model, messages);
    }
  });
});
