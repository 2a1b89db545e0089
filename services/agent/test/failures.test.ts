import {
  answer,
  cutOff,
  describeEachDatabase,
  type ModelServer,
  stall,
  startModelServer,
} from '@xv/platform/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { STREAM_ERROR_MARKER } from '../src/http/chat-stream.js';
import {
  type Agent,
  chat,
  chatRequest,
  MODEL_KEY,
  modelEnv,
  newSession,
  seen,
  startAgent,
  state,
  until,
} from './helpers.js';

describeEachDatabase('agent failures', (target) => {
  let model: ModelServer;
  let agent: Agent;

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    agent = await startAgent(await target.open('agent'), modelEnv(model));
  });
  afterAll(() => model.close());
  beforeEach(() => model.reset());

  it('ends the stream with a clear marker when the model fails mid-stream, and keeps the history intact', async () => {
    const session = newSession();
    model.script(answer('Earlier answer.'), cutOff('The first half of an ans'), answer('Clean answer.'));
    await chat(agent, session, 'earlier question');
    const response = await chatRequest(agent, session, 'question that breaks');
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body.startsWith('The first half of an ans')).toBe(true);
    expect(body).toContain(STREAM_ERROR_MARKER);
    expect((await state(agent, session)).messageCount).toBe(2);

    await chat(agent, session, 'try again');
    expect(seen(model.requests[2]!.messages).slice(1)).toEqual([
      'user:earlier question',
      'assistant:Earlier answer.',
      'user:try again',
    ]);
  });

  it('stops the model request when the client disconnects, and the session stays usable', async () => {
    const session = newSession();
    model.script(answer('word '.repeat(200), { delayMs: 20 }), answer('next'));
    const controller = new AbortController();
    const response = await chatRequest(agent, session, 'a long story', { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await model.requests[0]!.done;
    expect(model.requests[0]!.aborted).toBe(true);
    expect(await chat(agent, session, 'still there?')).toBe('next');
    expect((await state(agent, session)).messages.map((m: { content: string }) => m.content)).toEqual([
      'still there?',
      'next',
    ]);
  });

  it('stops a model that has not said anything yet when the client disconnects', async () => {
    const session = newSession();
    model.script(stall(), answer('after the stall'));
    const controller = new AbortController();
    const pending = chatRequest(agent, session, 'hello?', { signal: controller.signal }).catch(
      (error) => error,
    );
    await until(() => model.requests.length === 1, 'the model request');
    controller.abort();
    await pending;
    await model.requests[0]!.done;
    expect(model.requests[0]!.aborted).toBe(true);
    expect(await chat(agent, session, 'again')).toBe('after the stall');
  });
});
