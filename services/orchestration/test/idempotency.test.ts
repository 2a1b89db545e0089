/**
 * Idempotency keys are bound to their workflow and to a hash of the input (as the
 * IETF Idempotency-Key draft asks): the same key with the same input returns the
 * same run; the same key with another input answers 422 and tells nothing of the
 * run stored under it. All endpoints are public, so nothing else ties a key to a caller.
 */
import { migrate } from '@xv/platform';
import { describeEachDatabase, startService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import type { OrchestrationDatabase } from '../src/db.js';
import { migrations } from '../src/migrations/index.js';
import { orchestrationService } from '../src/service.js';
import {
  expectError,
  jsonInit,
  type RunningOrchestration,
  startUpstream,
  type Upstream,
  workflowFolder,
} from './helpers.js';

describeEachDatabase('idempotency keys', (target) => {
  let service: RunningOrchestration;
  let upstream: Upstream;
  let database: OrchestrationDatabase;

  beforeAll(async () => {
    upstream = await startUpstream();
    const folder = workflowFolder([
      {
        name: 'register-customer',
        description: 'Posts a customer record on to the CRM and returns what the CRM saw.',
        input: {
          properties: {
            email: { type: 'string', maxLength: 254 },
            phone: { type: 'string', maxLength: 40 },
            address: { type: 'object' },
          },
          required: ['email'],
        },
        steps: [
          {
            id: 'crm',
            type: 'connector',
            connector: 'http',
            with: {
              url: `${upstream.url}/echo`,
              method: 'POST',
              body: { email: '{{input.email}}', phone: '{{input.phone}}', address: '{{input.address}}' },
            },
          },
        ],
        result: { saved: '{{steps.crm.output.body.echo}}' },
      },
      {
        name: 'slow-register',
        description: 'Like register-customer, through an upstream that can be held.',
        input: { properties: { email: { type: 'string' } }, required: ['email'] },
        steps: [{ id: 'crm', type: 'connector', connector: 'http', with: { url: `${upstream.url}/hold` } }],
      },
    ]);
    const opened = await target.open('orchestration');
    database = opened as OrchestrationDatabase;
    service = await startService(orchestrationService, {
      database: opened,
      env: {
        XV_WORKFLOWS_DIR: folder,
        XV_WF_HTTP_ALLOWED_HOSTS: upstream.host,
        XV_ORCH_WF_PER_MINUTE: '100000',
      },
    });
  });

  const run = (body: unknown) => service.fetch('/api/wf', jsonInit(body));
  const victimInput = { email: 'victim@bank.example', phone: '+84 90 000 0000', address: { city: 'Hanoi' } };

  it("reusing another caller's idemKey with a different input reveals nothing and answers 422", async () => {
    const victim = await run({ workflow: 'register-customer', input: victimInput, idemKey: 'signup-1' });
    expect(victim.status).toBe(200);
    const victimRun = await victim.json();
    const echoes = upstream.hits('/echo');

    const response = await run({
      workflow: 'register-customer',
      input: { email: 'attacker@evil.example' },
      idemKey: 'signup-1',
    });
    const text = await response.clone().text();
    const body = await expectError(response, 422, 'idempotency_key_reused');
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'ok']);
    for (const secret of [victimRun.runId, 'victim@bank.example', '+84 90 000 0000', 'Hanoi', 'done']) {
      expect(text).not.toContain(secret);
    }
    // Nothing ran for the refused request.
    expect(upstream.hits('/echo')).toBe(echoes);
  });

  it('the same idemKey with the same input returns the same run, whatever the order of its fields', async () => {
    const first = await (
      await run({ workflow: 'register-customer', input: victimInput, idemKey: 'signup-2' })
    ).json();
    const echoes = upstream.hits('/echo');
    const reordered = { address: { city: 'Hanoi' }, phone: '+84 90 000 0000', email: 'victim@bank.example' };
    const again = await run({ workflow: 'register-customer', input: reordered, idemKey: 'signup-2' });
    expect(again.status).toBe(200);
    const body = await again.json();
    expect(body.runId).toBe(first.runId);
    expect(body.result).toEqual(first.result);
    expect(upstream.hits('/echo')).toBe(echoes);
  });

  it('a different input under a key whose run is still running answers 422 at once', async () => {
    upstream.block('/hold');
    try {
      const first = run({ workflow: 'slow-register', input: { email: 'a@firm.example' }, idemKey: 'slow-1' });
      while (upstream.hits('/hold') === 0) await new Promise((r) => setTimeout(r, 10));
      const other = await run({
        workflow: 'slow-register',
        input: { email: 'b@firm.example' },
        idemKey: 'slow-1',
      });
      const body = await expectError(other, 422, 'idempotency_key_reused');
      expect(body).not.toHaveProperty('runId');
      expect(body).not.toHaveProperty('status');
      upstream.release('/hold');
      expect((await first).status).toBe(200);
    } finally {
      upstream.release('/hold');
    }
    expect(upstream.hits('/hold')).toBe(1);
  });

  it('an object input nested too deep to store or hash answers 400 invalid_input, never 500', async () => {
    const depth = 20_000;
    const address = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    for (const idemKey of [undefined, 'deep-1']) {
      const text = `{"workflow":"register-customer","input":{"email":"deep@firm.example","address":${address}}${
        idemKey ? `,"idemKey":"${idemKey}"` : ''
      }}`;
      const response = await service.fetch('/api/wf', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      const body = await expectError(response, 400, 'invalid_input');
      expect(body.field).toBe('address');
    }
  });

  it('run ids are 128-bit random and a run is read only with its id', async () => {
    const ids = new Set<string>();
    for (const n of [1, 2, 3]) {
      const body = await (
        await run({ workflow: 'register-customer', input: { email: `n${n}@firm.example` } })
      ).json();
      expect(body.runId).toMatch(/^run_[0-9a-hjkmnp-tv-z]{26}$/);
      ids.add(body.runId);
    }
    expect(ids.size).toBe(3);
    await expectError(await service.fetch('/api/wf?idemKey=signup-1'), 400, 'invalid_request');
  });

  it('a run without an input hash matches no input: its key answers 422 whatever is sent', async () => {
    // A row the migration could not hash (its stored input unreadable): it can never be joined.
    await database.kysely
      .insertInto('wf_runs')
      .values({
        run_id: 'run_0000000000000000000000old1',
        workflow: 'register-customer',
        idem_key: 'legacy-1',
        input: JSON.stringify({ email: 'old@firm.example' }),
        input_hash: null,
        status: 'done',
        result: JSON.stringify({ saved: 'before' }),
        error: null,
        owner: null,
        lease_until: 0,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
    await expectError(
      await run({
        workflow: 'register-customer',
        input: { email: 'other@firm.example' },
        idemKey: 'legacy-1',
      }),
      422,
      'idempotency_key_reused',
    );
    await expectError(
      await run({ workflow: 'register-customer', input: { email: 'old@firm.example' }, idemKey: 'legacy-1' }),
      422,
      'idempotency_key_reused',
    );
  });
});

describeEachDatabase('idempotency key migration', (target) => {
  it('computes the input hash of runs stored before it, so their keys still match their input', async () => {
    const opened = await target.open('orchestration');
    const database = opened as OrchestrationDatabase;
    const { '0003_idempotency_input_hash': _, ...before } = migrations;
    expect(_).toBeDefined();
    await migrate(opened, before);
    await database.kysely
      .insertInto('wf_runs')
      .values({
        run_id: 'run_0000000000000000000000old2',
        workflow: 'register-customer',
        idem_key: 'legacy-2',
        input: JSON.stringify({ phone: '1', email: 'old@firm.example' }),
        status: 'done',
        result: JSON.stringify({ saved: 'before' }),
        error: null,
        owner: null,
        lease_until: 0,
        created_at: 1,
        updated_at: 1,
      } as never)
      .execute();
    await migrate(opened, migrations);
    const row = await database.kysely
      .selectFrom('wf_runs')
      .select('input_hash')
      .where('run_id', '=', 'run_0000000000000000000000old2')
      .executeTakeFirstOrThrow();
    const { inputHash } = await import('../src/workflows/input-hash.js');
    expect(row.input_hash).toBe(inputHash({ email: 'old@firm.example', phone: '1' }));
  });
});
