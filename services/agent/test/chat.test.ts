import { answer, describeEachDatabase, fail, type ModelServer, startModelServer } from '@xv/platform/testing';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  type Agent,
  chat,
  chatRequest,
  MODEL_KEY,
  modelEnv,
  newSession,
  postJson,
  seen,
  startAgent,
  state,
} from './helpers.js';

describeEachDatabase('agent chat', (target) => {
  let model: ModelServer;
  let agent: Agent;

  beforeAll(async () => {
    model = await startModelServer({ apiKey: MODEL_KEY });
    agent = await startAgent(
      await target.open('agent'),
      modelEnv(model, { XV_AGENT_MAX_MESSAGE_CHARS: '500' }),
    );
  });
  afterAll(() => model.close());
  beforeEach(() => model.reset());

  it('streams the answer as text/plain in pieces', async () => {
    model.script(answer('Xin chào, how can I help?', { delayMs: 5 }));
    const response = await chatRequest(agent, newSession(), 'hello');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const reader = response.body!.getReader();
    const pieces: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pieces.push(new TextDecoder().decode(value));
    }
    expect(pieces.join('')).toBe('Xin chào, how can I help?');
    expect(pieces.length).toBeGreaterThan(1);
  });

  it('sends the first words while the model is still writing the rest', async () => {
    model.script(answer('one two three four', { delayMs: 300 }));
    const response = await chatRequest(agent, newSession(), 'count slowly');
    const reader = response.body!.getReader();
    let finished = false;
    void model.requests[0]?.done.then(() => {
      finished = true;
    });
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('one ');
    expect(finished).toBe(false);
    while (!(await reader.read()).done) {}
  });

  it('remembers the conversation and shows it in the state', async () => {
    const session = newSession();
    model.script(answer('First answer.'), answer('Second answer.'));
    await chat(agent, session, 'first question');
    await chat(agent, session, 'second question');
    expect(seen(model.requests[1]!.messages).slice(1)).toEqual([
      'user:first question',
      'assistant:First answer.',
      'user:second question',
    ]);
    const body = await state(agent, session);
    expect(body).toMatchObject({
      tenant: 'default',
      route: { provider: 'openai-compatible', model: 'scripted' },
      messageCount: 4,
    });
    expect(body.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      'user:first question',
      'assistant:First answer.',
      'user:second question',
      'assistant:Second answer.',
    ]);
    for (const m of body.messages) {
      expect(m.id).toMatch(/^msg_/);
      expect(Number.isInteger(m.ts)).toBe(true);
    }
  });

  it('sends the system prompt first', async () => {
    model.script(answer('ok'));
    await chat(agent, newSession(), 'hi');
    expect(model.requests[0]!.messages[0]).toMatchObject({ role: 'system' });
    expect(model.requests[0]!.messages[0].content).toContain('XV business assistant');
  });

  it('keeps sessions apart', async () => {
    const [a, b] = [newSession('a'), newSession('b')];
    model.script(answer('for a'), answer('for b'));
    await chat(agent, a, 'secret of a');
    await chat(agent, b, 'question of b');
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('secret of a');
    expect((await state(agent, b)).messages.map((m: { content: string }) => m.content)).toEqual([
      'question of b',
      'for b',
    ]);
  });

  it('selects the session by header as well as by query, and both name the same session', async () => {
    const session = newSession();
    model.script(answer('via header'), answer('via query'));
    await chat(agent, session, 'one', { via: 'header' });
    await chat(agent, session, 'two', { via: 'query' });
    const byHeader = await agent.fetch('/api/state', { headers: { 'x-agent-session': session } });
    expect((await byHeader.json()).messageCount).toBe(4);
  });

  it('refuses a query and a header naming different sessions', async () => {
    const response = await agent.fetch('/api/state?session=one', { headers: { 'x-agent-session': 'two' } });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('session_conflict');
  });

  it.each(['has space', 'a/b', 'x'.repeat(129), '<script>'])('refuses the session id %j', async (id) => {
    const response = await agent.fetch(`/api/state?session=${encodeURIComponent(id)}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_session');
  });

  it('needs a session for state, config and reset, and gives a new chat one', async () => {
    for (const [method, path] of [
      ['GET', '/api/state'],
      ['POST', '/api/reset'],
    ] as const) {
      const response = await agent.fetch(path, { method });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('session_required');
    }
    expect((await postJson(agent, '/api/config', {})).status).toBe(400);
    model.script(answer('welcome'));
    const response = await chatRequest(agent, undefined, 'hi');
    expect(response.status).toBe(200);
    const session = response.headers.get('x-agent-session')!;
    expect(session).toMatch(/^ses_/);
    expect(await response.text()).toBe('welcome');
    expect((await state(agent, session)).messageCount).toBe(2);
  });

  it.each([
    ['an empty message', JSON.stringify({ message: '' }), 'empty_message'],
    ['a blank message', JSON.stringify({ message: '   ' }), 'empty_message'],
    ['no message', JSON.stringify({ route: { provider: 'openai-compatible' } }), 'empty_message'],
    ['a body that is not JSON', 'hello agent', 'invalid_json'],
    ['truncated JSON', '{"message": "hi', 'invalid_json'],
    ['a JSON array', '["hi"]', 'invalid_json'],
    ['a message that is not a string', JSON.stringify({ message: 42 }), 'invalid_request'],
    [
      'an unknown provider',
      JSON.stringify({ message: 'hi', route: { provider: 'skynet' } }),
      'invalid_request',
    ],
    ['a message over the limit', JSON.stringify({ message: 'x'.repeat(501) }), 'message_too_long'],
  ])('answers %s with 400', async (_, body, code) => {
    const response = await agent.fetch(`/api/chat?session=${newSession()}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe(code);
    expect(model.requests).toHaveLength(0);
  });

  it('answers a non-JSON content type with 400 too', async () => {
    const response = await agent.fetch(`/api/chat?session=${newSession()}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(response.status).toBe(400);
  });

  it('resets the history but keeps the settings', async () => {
    const session = newSession();
    model.script(answer('one'), answer('after reset'));
    expect(
      (await postJson(agent, `/api/config?session=${session}`, { systemPrompt: 'Be terse.' })).status,
    ).toBe(200);
    await chat(agent, session, 'before reset');
    const reset = await agent.fetch(`/api/reset?session=${session}`, { method: 'POST' });
    expect(await reset.json()).toEqual({ ok: true });
    expect(await state(agent, session)).toMatchObject({
      messageCount: 0,
      messages: [],
      systemPrompt: 'Be terse.',
    });
    await chat(agent, session, 'after');
    expect(seen(model.requests[1]!.messages)).toEqual(['system:Be terse.', 'user:after']);
  });

  it('configures route, system prompt and tenant', async () => {
    const session = newSession();
    const route = {
      provider: 'openai-compatible',
      model: 'other-model',
      useGateway: false,
      temperature: 0.2,
    };
    const response = await postJson(agent, `/api/config?session=${session}`, {
      route,
      systemPrompt: 'You are a tax advisor.',
      tenant: 'acme',
    });
    expect(await response.json()).toEqual({ ok: true, route });
    expect(await state(agent, session)).toMatchObject({
      tenant: 'acme',
      route,
      systemPrompt: 'You are a tax advisor.',
    });
    model.script({ model: 'other-model' }, answer('from the other model'));
    expect(await chat(agent, session, 'hi')).toBe('from the other model');
    expect(model.requests[0]!.model).toBe('other-model');
  });

  it('refuses a bad config with 400', async () => {
    const session = newSession();
    for (const body of [
      { tenant: 'no spaces allowed' },
      { route: { provider: 'unknown' } },
      { route: 'openai-compatible' },
      { systemPrompt: 'x'.repeat(8001) },
    ]) {
      const response = await postJson(agent, `/api/config?session=${session}`, body);
      expect(response.status).toBe(400);
    }
  });

  it('uses and remembers the route sent with a message', async () => {
    const session = newSession();
    model.script({ model: 'picked' }, answer('picked answers'), answer('still picked'));
    await chat(agent, session, 'one', { route: { provider: 'openai-compatible', model: 'picked' } });
    expect((await state(agent, session)).route).toEqual({ provider: 'openai-compatible', model: 'picked' });
    await chat(agent, session, 'two');
    expect(model.requests.map((r) => r.model)).toEqual(['picked', 'picked']);
  });

  it('answers 502 model_failed when the model fails before answering, and saves nothing', async () => {
    const session = newSession();
    model.script(fail(500));
    const response = await chatRequest(agent, session, 'hello');
    expect(response.status).toBe(502);
    expect((await response.json()).error).toBe('model_failed');
    expect((await state(agent, session)).messageCount).toBe(0);
  });

  it('answers 503 ai_unavailable naming the settings when the provider is not configured', async () => {
    const response = await chatRequest(agent, newSession(), 'hello', { route: { provider: 'workers-ai' } });
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body.error).toBe('ai_unavailable');
    expect(body.message).toContain('XV_WORKERS_AI_TOKEN');
  });

  it('publishes the chat, state, config and reset endpoints in OpenAPI', async () => {
    const doc = await (await agent.fetch('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/chat', '/api/state', '/api/config', '/api/reset', '/api/tickets']),
    );
  });
});
