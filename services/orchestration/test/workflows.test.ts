import {
  answer,
  describeEachDatabase,
  type ModelServer,
  startModelServer,
  startService,
} from '@xv/platform/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import {
  expectError,
  jsonInit,
  modelEnv,
  type RunningOrchestration,
  rawJsonInit,
  startUpstream,
  type Upstream,
  workflowFolder,
} from './helpers.js';

describeEachDatabase('workflows', (target) => {
  let service: RunningOrchestration;
  let upstream: Upstream;
  let model: ModelServer;

  beforeAll(async () => {
    upstream = await startUpstream();
    model = await startModelServer();
    const call = (path: string) => ({ url: `${upstream.url}${path}` });
    const folder = workflowFolder([
      {
        name: 'three-calls',
        description: 'Three HTTP calls, each using the one before.',
        input: {
          properties: { tag: { type: 'string', maxLength: 20 }, count: { type: 'integer' } },
          required: ['tag'],
        },
        steps: [
          { id: 'first', type: 'connector', connector: 'http', with: call('/one') },
          {
            id: 'second',
            type: 'connector',
            connector: 'http',
            with: {
              ...call('/echo'),
              method: 'POST',
              body: { tag: '{{input.tag}}', firstHit: '{{steps.first.output.body.hit}}' },
            },
          },
          { id: 'third', type: 'connector', connector: 'http', with: call('/three') },
        ],
        result: { tag: '{{steps.second.output.body.echo.tag}}', echoed: '{{steps.second.output.body.echo}}' },
      },
      {
        name: 'retrying-call',
        description: 'One call, three tries with 100 ms then 200 ms between them.',
        input: { properties: { path: { type: 'string' } }, required: ['path'] },
        steps: [
          {
            id: 'call',
            type: 'connector',
            connector: 'http',
            with: { url: `${upstream.url}{{input.path}}` },
            retry: { attempts: 3, backoffMs: 100, factor: 2 },
          },
        ],
      },
      {
        name: 'impatient-call',
        description: 'One call that may take 300 ms per try, two tries.',
        input: { properties: { path: { type: 'string' } }, required: ['path'] },
        steps: [
          {
            id: 'call',
            type: 'connector',
            connector: 'http',
            with: { url: `${upstream.url}{{input.path}}` },
            timeoutMs: 300,
            retry: { attempts: 2, backoffMs: 10 },
          },
        ],
      },
      {
        name: 'search-passages',
        description: 'Searches the knowledge base with as many hits as asked for.',
        input: { properties: { topic: { type: 'string' }, k: { type: 'integer' } }, required: ['topic'] },
        steps: [
          {
            id: 'search',
            type: 'connector',
            connector: 'kb.search',
            with: { query: '{{input.topic}}', topK: '{{input.k}}' },
          },
        ],
      },
      {
        name: 'describe-company',
        description: 'A model describes the company; the description is posted on.',
        input: { properties: { company: { type: 'string' } }, required: ['company'] },
        steps: [
          { id: 'describe', type: 'ai', tier: 'fast', prompt: 'Describe {{input.company}} in one line.' },
          {
            id: 'post',
            type: 'connector',
            connector: 'http',
            with: { ...call('/echo'), method: 'POST', body: { text: '{{steps.describe.output}}' } },
          },
        ],
        result: { description: '{{steps.describe.output}}' },
      },
    ]);
    const database = await target.open('orchestration');
    service = await startService(orchestrationService, {
      database,
      env: {
        XV_WORKFLOWS_DIR: folder,
        XV_WF_HTTP_ALLOWED_HOSTS: upstream.host,
        XV_ORCH_WF_PER_MINUTE: '100000',
        ...modelEnv(model),
        XV_ROUTER_TIERS: JSON.stringify({ fast: { models: ['openai-compatible:wf-model'] } }),
      },
    });
  });
  afterAll(() => model.close());

  const run = (body: unknown) => service.fetch('/api/wf', jsonInit(body));

  it('lists the built-in and configured workflows with their input schema', async () => {
    const { ok, workflows } = await (await service.fetch('/api/workflows')).json();
    expect(ok).toBe(true);
    const names = workflows.map((w: { name: string }) => w.name);
    expect(names).toEqual(
      expect.arrayContaining(['qualify-lead', 'kb-answer', 'summarise-and-seal', 'three-calls']),
    );
    const three = workflows.find((w: { name: string }) => w.name === 'three-calls');
    expect(three.description).toContain('Three HTTP calls');
    expect(three.input).toMatchObject({
      type: 'object',
      required: ['tag'],
      properties: { tag: { type: 'string' } },
    });
  });

  it('runs the steps in order, feeding each the outputs before it, and returns the run', async () => {
    const response = await run({ workflow: 'three-calls', input: { tag: 'alpha' } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      ok: true,
      workflow: 'three-calls',
      status: 'done',
      result: { tag: 'alpha' },
    });
    expect(body.runId).toMatch(/^run_[0-9a-z]{26}$/);
    expect(
      body.steps.map((s: { id: string; type: string; status: string }) => [s.id, s.type, s.status]),
    ).toEqual([
      ['first', 'connector', 'ok'],
      ['second', 'connector', 'ok'],
      ['third', 'connector', 'ok'],
    ]);
    expect(typeof body.steps[0].output).toBe('string');
    expect(body.result.echoed).toEqual({ tag: 'alpha', firstHit: upstream.hits('/one') });

    const record = await (await service.fetch(`/api/wf?id=${body.runId}`)).json();
    expect(record.ok).toBe(true);
    expect(record.run).toEqual({ run_id: body.runId, workflow: 'three-calls', status: 'done' });
    expect(record.steps.map((s: { step_id: string }) => s.step_id)).toEqual(['first', 'second', 'third']);
    for (const step of record.steps) {
      expect(step.status).toBe('ok');
      expect(Number.isInteger(step.latency_ms)).toBe(true);
    }
  });

  it('answers an ai step with the tier model, its prompt rendered from the input', async () => {
    model.script({ model: 'wf-model' }, answer('Acme makes anvils.'));
    const body = await (await run({ workflow: 'describe-company', input: { company: 'Acme' } })).json();
    expect(body.status).toBe('done');
    expect(body.steps[0]).toMatchObject({
      id: 'describe',
      type: 'ai',
      status: 'ok',
      output: 'Acme makes anvils.',
    });
    expect(body.result).toEqual({ description: 'Acme makes anvils.' });
    const asked = model.requests.at(-1)!;
    expect(asked.model).toBe('wf-model');
    expect(JSON.stringify(asked.messages)).toContain('Describe Acme in one line.');
  });

  it('retries a failing step with exponential backoff until it succeeds', async () => {
    upstream.failNext('/flaky', 2, 503);
    const body = await (await run({ workflow: 'retrying-call', input: { path: '/flaky' } })).json();
    expect(body.status).toBe('done');
    expect(body.steps[0]).toMatchObject({ status: 'ok', attempts: 3 });
    expect(upstream.hits('/flaky')).toBe(3);
    const [t1, t2, t3] = upstream.times('/flaky') as [number, number, number];
    // The waits are at least 100 ms, then 200 ms (backoff × factor).
    expect(t2 - t1).toBeGreaterThanOrEqual(95);
    expect(t3 - t2).toBeGreaterThanOrEqual(195);
  });

  it('gives up after the last try and reports the failed run', async () => {
    const response = await run({ workflow: 'retrying-call', input: { path: '/status/503' } });
    const body = await expectError(response, 502, 'workflow_failed');
    expect(body).toMatchObject({ status: 'failed', workflow: 'retrying-call', failedStep: 'call' });
    expect(body.steps[0]).toMatchObject({ id: 'call', status: 'failed', attempts: 3 });
    expect(upstream.hits('/status/503')).toBe(3);
    const record = await (await service.fetch(`/api/wf?id=${body.runId}`)).json();
    expect(record.run.status).toBe('failed');
  });

  it('does not retry an error a retry cannot fix', async () => {
    const body = await expectError(
      await run({ workflow: 'retrying-call', input: { path: '/status/404' } }),
      502,
      'workflow_failed',
    );
    expect(body.steps[0].attempts).toBe(1);
    expect(upstream.hits('/status/404')).toBe(1);
  });

  it('times out a slow try and retries it', async () => {
    upstream.block('/slow');
    try {
      const body = await expectError(
        await run({ workflow: 'impatient-call', input: { path: '/slow' } }),
        502,
        'workflow_failed',
      );
      expect(body.message).toContain('300 ms');
      expect(upstream.hits('/slow')).toBe(2);
    } finally {
      upstream.release('/slow');
    }
  });

  it('refuses a host that is not on the allow list without calling it', async () => {
    const body = await expectError(
      await run({ workflow: 'retrying-call', input: { path: '@example.com/' } }),
      502,
      'workflow_failed',
    );
    expect(body.message).toContain('XV_WF_HTTP_ALLOWED_HOSTS');
    expect(body.steps[0].attempts).toBe(1);
  });

  it('runs a workflow once for 50 concurrent requests with the same idemKey', async () => {
    upstream.block('/once');
    const requests = Array.from({ length: 50 }, () =>
      run({ workflow: 'retrying-call', input: { path: '/once' }, idemKey: 'order-42' }),
    );
    // Let every duplicate arrive while the first run is still inside its step.
    while (upstream.hits('/once') === 0) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 200));
    upstream.release('/once');
    const bodies = await Promise.all((await Promise.all(requests)).map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.runId)).size).toBe(1);
    expect(bodies.every((b) => b.status === 'done')).toBe(true);
    expect(upstream.hits('/once')).toBe(1);

    const again = await (
      await run({ workflow: 'retrying-call', input: { path: '/once' }, idemKey: 'order-42' })
    ).json();
    expect(again.runId).toBe(bodies[0].runId);
    expect(upstream.hits('/once')).toBe(1);
    // The key is scoped to its workflow: another workflow runs afresh.
    const other = await (
      await run({ workflow: 'impatient-call', input: { path: '/once' }, idemKey: 'order-42' })
    ).json();
    expect(other.runId).not.toBe(bodies[0].runId);
    expect(upstream.hits('/once')).toBe(2);
  });

  it('answers unknown_workflow, empty_input and invalid_input', async () => {
    await expectError(await run({ workflow: 'no-such-flow', input: {} }), 400, 'unknown_workflow');
    await expectError(await run({ workflow: 'three-calls', input: {} }), 400, 'empty_input');
    await expectError(await run({ workflow: 'three-calls' }), 400, 'empty_input');
    await expectError(await run({ workflow: 'three-calls', input: { tag: '   ' } }), 400, 'empty_input');
    await expectError(await run({ workflow: 'three-calls', input: { tag: 7 } }), 400, 'invalid_input');
    await expectError(
      await run({ workflow: 'three-calls', input: { tag: 'a', count: 1.5 } }),
      400,
      'invalid_input',
    );
    await expectError(
      await run({ workflow: 'three-calls', input: { tag: 'x'.repeat(21) } }),
      400,
      'invalid_input',
    );
  });

  it('an input a connector step cannot take answers 400 invalid_input naming the input field, not 502', async () => {
    const body = await expectError(
      await run({ workflow: 'search-passages', input: { topic: 'refunds', k: 500 } }),
      400,
      'invalid_input',
    );
    expect(body.field).toBe('k');
    expect(body).not.toHaveProperty('runId');
  });

  it('accepts an idemKey of 120 characters and refuses 121', async () => {
    const ok = await run({ workflow: 'three-calls', input: { tag: 'k' }, idemKey: 'k'.repeat(120) });
    expect(ok.status).toBe(200);
    await expectError(
      await run({ workflow: 'three-calls', input: { tag: 'k' }, idemKey: 'k'.repeat(121) }),
      400,
      'idem_key_too_long',
    );
  });

  it('answers 404 not_found for an unknown or malformed run id', async () => {
    await expectError(await service.fetch('/api/wf?id=run_00000000000000000000000000'), 404, 'not_found');
    await expectError(await service.fetch('/api/wf?id=%27%20or%201=1'), 404, 'not_found');
    await expectError(await service.fetch('/api/wf'), 400, 'invalid_request');
  });

  it('answers malformed bodies with 4xx, never 500', async () => {
    await expectError(await service.fetch('/api/wf', rawJsonInit('{')), 400, 'invalid_json');
    await expectError(await run({ input: {} }), 400, 'invalid_request');
    await expectError(await run({ workflow: 'three-calls', input: 'tag' }), 400, 'invalid_request');
    await expectError(
      await run({ workflow: 'three-calls', input: { tag: 'a' }, idemKey: 5 }),
      400,
      'invalid_request',
    );
  });
});
