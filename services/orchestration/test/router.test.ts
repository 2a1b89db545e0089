import { SettingsError } from '@xv/platform';
import { buildService } from '@xv/platform/service';
import {
  answer,
  describeEachDatabase,
  fail,
  type ModelServer,
  stall,
  startModelServer,
  startService,
} from '@xv/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import { expectError, jsonInit, modelEnv, type RunningOrchestration, rawJsonInit } from './helpers.js';

const TIERS = {
  fast: { label: 'Quick', models: ['openai-compatible:fast-a'] },
  balanced: {
    label: 'Balanced',
    models: ['openai-compatible:bal-a', 'openai-compatible:bal-b', 'openai-compatible:bal-c'],
  },
  frontier: { models: ['openai-compatible:cool-a', 'openai-compatible:cool-b'] },
};

describeEachDatabase('router', (target) => {
  let service: RunningOrchestration;
  let model: ModelServer;

  beforeAll(async () => {
    model = await startModelServer();
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: {
        ...modelEnv(model),
        XV_ROUTER_TIERS: JSON.stringify(TIERS),
        XV_ROUTER_MODEL_TIMEOUT_MS: '500',
        XV_ROUTER_COOLDOWN_FAILURES: '3',
        XV_ROUTER_COOLDOWN_SECONDS: '60',
        XV_ORCH_ROUTE_PER_MINUTE: '100000',
      },
    });
  });
  afterAll(() => model.close());

  const route = (body: unknown) => service.fetch('/api/route', jsonInit(body));
  const askedModels = () => model.requests.map((r) => r.model);

  it('answers with the first model of the tier and reports one hop', async () => {
    model.reset();
    model.script({ model: 'fast-a' }, answer('Paris.'));
    const response = await route({ prompt: 'Capital of France?', difficulty: 'fast' });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      ok: true,
      label: 'Quick',
      model: 'openai-compatible:fast-a',
      answer: 'Paris.',
    });
    expect(Number.isInteger(body.latencyMs)).toBe(true);
    expect(body.hops).toEqual([expect.objectContaining({ model: 'openai-compatible:fast-a', status: 'ok' })]);
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Capital of France?');
  });

  it('uses the balanced tier by default', async () => {
    model.reset();
    model.script({ model: 'bal-a' }, answer('Balanced answer.'));
    const body = await (await route({ prompt: 'Hello' })).json();
    expect(body).toMatchObject({ label: 'Balanced', model: 'openai-compatible:bal-a' });
  });

  it('falls back in order on errors and lists every attempt', async () => {
    model.reset();
    model.script(
      { model: 'bal-a' },
      fail(500),
      { model: 'bal-b' },
      fail(429),
      { model: 'bal-c' },
      answer('Third time.'),
    );
    const body = await (await route({ prompt: 'Hello', difficulty: 'balanced' })).json();
    expect(body).toMatchObject({ ok: true, model: 'openai-compatible:bal-c', answer: 'Third time.' });
    expect(body.hops.map((h: { model: string; status: string }) => [h.model, h.status])).toEqual([
      ['openai-compatible:bal-a', 'error'],
      ['openai-compatible:bal-b', 'error'],
      ['openai-compatible:bal-c', 'ok'],
    ]);
    expect(body.hops[0].reason).toBe('http_500');
    expect(body.hops[1].reason).toBe('http_429');
    expect(askedModels()).toEqual(['bal-a', 'bal-b', 'bal-c']);
  });

  it('moves on when a model does not answer within its timeout', async () => {
    model.reset();
    model.script({ model: 'bal-a' }, stall(), { model: 'bal-b' }, answer('Prompt reply.'));
    const body = await (await route({ prompt: 'Hello' })).json();
    expect(body.model).toBe('openai-compatible:bal-b');
    expect(body.hops[0]).toMatchObject({ status: 'error', reason: 'timeout' });
    await model.requests[0]!.done;
    expect(model.requests[0]!.aborted).toBe(true);
  });

  it('answers 502 all_failed with the hops when every model fails', async () => {
    model.reset();
    model.script(
      { model: 'bal-a' },
      fail(503),
      { model: 'bal-b' },
      fail(500),
      { model: 'bal-c' },
      answer(''),
    );
    const body = await expectError(await route({ prompt: 'Hello' }), 502, 'all_failed');
    expect(body.hops.map((h: { status: string }) => h.status)).toEqual(['error', 'error', 'error']);
    expect(body.hops[2].reason).toBe('empty_answer');
  });

  it('cools a model down after three failures and skips it, showing the skip in hops', async () => {
    model.reset();
    for (let i = 0; i < 3; i += 1) {
      model.script({ model: 'cool-a' }, fail(500), { model: 'cool-b' }, answer(`Backup ${i}.`));
      const body = await (await route({ prompt: 'Hello', difficulty: 'frontier' })).json();
      expect(body.hops[0]).toMatchObject({ model: 'openai-compatible:cool-a', status: 'error' });
    }
    model.script({ model: 'cool-b' }, answer('Skipped the broken one.'));
    const body = await (await route({ prompt: 'Hello', difficulty: 'frontier' })).json();
    expect(body).toMatchObject({
      label: 'Frontier',
      model: 'openai-compatible:cool-b',
      answer: 'Skipped the broken one.',
    });
    expect(body.hops[0]).toEqual({ model: 'openai-compatible:cool-a', status: 'error', skipped: 'cooldown' });
    expect(askedModels().filter((m) => m === 'cool-a')).toHaveLength(3);
  });

  it('answers empty_prompt, prompt_too_long and invalid_request', async () => {
    await expectError(await route({}), 400, 'empty_prompt');
    await expectError(await route({ prompt: '' }), 400, 'empty_prompt');
    await expectError(await route({ prompt: '  \n ' }), 400, 'empty_prompt');
    await expectError(await route({ prompt: 'x'.repeat(601) }), 400, 'prompt_too_long');
    await expectError(await route({ prompt: 'Hi', difficulty: 'genius' }), 400, 'invalid_request');
    await expectError(await route({ prompt: 42 }), 400, 'invalid_request');
    await expectError(await service.fetch('/api/route', rawJsonInit('{"prompt":')), 400, 'invalid_json');
  });

  it('accepts a prompt of exactly 600 characters, counted as characters', async () => {
    model.reset();
    model.script({ model: 'fast-a' }, answer('Long one.'), { model: 'fast-a' }, answer('Emoji.'));
    expect((await route({ prompt: 'y'.repeat(600), difficulty: 'fast' })).status).toBe(200);
    expect((await route({ prompt: '😀'.repeat(600), difficulty: 'fast' })).status).toBe(200);
  });
});

describeEachDatabase('router without a model', (target) => {
  it('answers 503 ai_unavailable when no model is configured', async () => {
    const service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
    });
    await expectError(
      await service.fetch('/api/route', jsonInit({ prompt: 'Hello' })),
      503,
      'ai_unavailable',
    );
  });

  it('answers 503 ai_unavailable when the tier names only unconfigured providers', async () => {
    const service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: {
        XV_ROUTER_TIERS: JSON.stringify({
          balanced: { models: ['workers-ai:@cf/meta/llama-3.1-8b-instruct'] },
        }),
      },
    });
    const body = await expectError(
      await service.fetch('/api/route', jsonInit({ prompt: 'Hello' })),
      503,
      'ai_unavailable',
    );
    expect(body.hops[0]).toMatchObject({ status: 'error', reason: 'not_configured' });
  });

  it('limits routing per client address (429 rate_limited)', async () => {
    const service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { XV_ORCH_ROUTE_PER_MINUTE: '2' },
    });
    const route = () => service.fetch('/api/route', jsonInit({ prompt: 'Hello' }));
    await expectError(await route(), 503, 'ai_unavailable');
    await expectError(await route(), 503, 'ai_unavailable');
    const limited = await route();
    await expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.runIf(target.dialect === 'postgres')('shares the limit between instances on PostgreSQL', async () => {
    const database = await target.open('orchestration');
    const env = { XV_ORCH_ROUTE_PER_MINUTE: '2' };
    const first = await startService(orchestrationService, { database, env });
    const second = await startService(orchestrationService, { database, env });
    await expectError(await first.fetch('/api/route', jsonInit({ prompt: 'Hi' })), 503, 'ai_unavailable');
    await expectError(await second.fetch('/api/route', jsonInit({ prompt: 'Hi' })), 503, 'ai_unavailable');
    await expectError(await first.fetch('/api/route', jsonInit({ prompt: 'Hi' })), 429, 'rate_limited');
  });

  it('stops start-up on bad tiers, naming the setting', async () => {
    const database = await target.open('orchestration');
    for (const tiers of [
      '{not json',
      '{"balanced":{"models":[]}}',
      '{"turbo":{"models":["openai-compatible:x"]}}',
    ]) {
      const attempt = buildService(orchestrationService, {
        database,
        env: { XV_LOG_LEVEL: 'silent', XV_ROUTER_TIERS: tiers },
      });
      await expect(attempt).rejects.toThrow(SettingsError);
      await expect(attempt).rejects.toThrow(/XV_ROUTER_TIERS/);
    }
  });
});
