/**
 * Every path that creates a lead goes through the bot challenge when it is on:
 * `POST /api/lead`, the form, and any workflow with a `lead.create` step (the
 * built-in `qualify-lead`), which carries the answer in its input under the same
 * field name as the lead form. A solved challenge counts once across all of them.
 */
import {
  answer,
  describeEachDatabase,
  type ModelServer,
  startModelServer,
  startService,
} from '@xv/platform/testing';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OrchestrationDatabase } from '../src/db.js';
import { orchestrationService } from '../src/service.js';
import {
  expectError,
  jsonInit,
  modelEnv,
  type RunningOrchestration,
  startTurnstileSiteverify,
} from './helpers.js';

const ADMIN_TOKEN = 'operator-token-0123456789';

describeEachDatabase('lead-creating workflows: ALTCHA', (target) => {
  let service: RunningOrchestration;
  let model: ModelServer;
  let database: OrchestrationDatabase;

  beforeAll(async () => {
    model = await startModelServer();
    const opened = await target.open('orchestration');
    database = opened as OrchestrationDatabase;
    service = await startService(orchestrationService, {
      database: opened,
      env: {
        ...modelEnv(model),
        XV_LEAD_CHALLENGE: 'altcha',
        XV_ALTCHA_MAX_NUMBER: '2000',
        XV_ORCH_LEAD_PER_MINUTE: '100000',
        XV_ORCH_WF_PER_MINUTE: '100000',
        XV_ORCH_ADMIN_TOKEN: ADMIN_TOKEN,
      },
    });
  });
  afterAll(() => model.close());

  async function solvedPayload() {
    const challenge = (await (await service.fetch('/api/lead/challenge')).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
  const qualify = (input: Record<string, unknown>, idemKey?: string) =>
    service.fetch('/api/wf', jsonInit({ workflow: 'qualify-lead', input, ...(idemKey ? { idemKey } : {}) }));
  const storedLeads = async () => {
    const { leads } = await (
      await service.fetch('/api/leads?limit=500', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
    ).json();
    return leads as { email: string; tool: string }[];
  };
  const runCount = async () =>
    Number(
      (
        await database.kysely
          .selectFrom('wf_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('the qualify-lead workflow cannot create a lead without the challenge when it is enabled', async () => {
    const runs = await runCount();
    const lead = { name: 'Bot', email: 'bot@spam-farm.example', company: 'Spam' };
    await expectError(await qualify(lead), 400, 'challenge_required');
    await expectError(await qualify({ ...lead, altcha: 'bm90IGpzb24=' }), 400, 'challenge_failed');
    await expectError(await qualify(lead, 'bot-key-1'), 400, 'challenge_required');
    expect((await storedLeads()).some((l) => l.email === 'bot@spam-farm.example')).toBe(false);
    expect(await runCount()).toBe(runs);
    expect(model.requests).toHaveLength(0);
  });

  it('a solved challenge creates the lead through the workflow once and is refused by every lead path after', async () => {
    model.script(answer('Score 7/10: ask about volumes.'));
    const altcha = await solvedPayload();
    const response = await qualify({ name: 'Lin', email: 'lin@factory.example', company: 'Factory', altcha });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.result.leadId).toMatch(/^lead_/);
    expect((await storedLeads()).find((l) => l.email === 'lin@factory.example')).toMatchObject({
      tool: 'qualify-lead',
    });
    // The answer is not part of the run's input: it is neither stored nor shown to the model.
    const stored = await database.kysely
      .selectFrom('wf_runs')
      .select('input')
      .where('run_id', '=', body.runId)
      .executeTakeFirstOrThrow();
    expect(stored.input).not.toContain(altcha);
    expect(JSON.stringify(model.requests.at(-1)!.messages)).not.toContain(altcha);

    await expectError(
      await qualify({ name: 'Bis', email: 'bis@factory.example', company: 'Factory', altcha }),
      400,
      'challenge_reused',
    );
    await expectError(
      await service.fetch('/api/lead', jsonInit({ name: 'Ter', email: 'ter@factory.example', altcha })),
      400,
      'challenge_reused',
    );
  });

  it('a retry with the same idemKey and input joins its run without spending a new challenge', async () => {
    model.script(answer('Score 5/10.'));
    const input = { name: 'Mai', email: 'mai@mill.example', company: 'Mill', altcha: await solvedPayload() };
    const first = await (await qualify(input, 'mai-1')).json();
    expect(first.status).toBe('done');
    const retry = await qualify(input, 'mai-1');
    expect(retry.status).toBe(200);
    expect((await retry.json()).runId).toBe(first.runId);
    const { altcha: _, ...withoutAnswer } = input;
    expect((await (await qualify(withoutAnswer, 'mai-1')).json()).runId).toBe(first.runId);
  });

  it('publishes the challenge field in the input schema of lead-creating workflows only', async () => {
    const { workflows } = await (await service.fetch('/api/workflows')).json();
    const byName = (name: string) => workflows.find((w: { name: string }) => w.name === name).input;
    expect(byName('qualify-lead').required).toContain('altcha');
    expect(byName('qualify-lead').properties.altcha).toMatchObject({ type: 'string' });
    expect(byName('kb-answer').properties).not.toHaveProperty('altcha');
  });
});

describeEachDatabase('lead-creating workflows: Turnstile', (target) => {
  let service: RunningOrchestration;
  beforeAll(async () => {
    const siteverify = await startTurnstileSiteverify();
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { ...siteverify.env, XV_ORCH_WF_PER_MINUTE: '100000' },
    });
  });

  it('the qualify-lead workflow cannot create a lead without a Turnstile token when Turnstile is on', async () => {
    const lead = { name: 'Bot', email: 'bot@spam-farm.example', company: 'Spam' };
    const run = (input: unknown) => service.fetch('/api/wf', jsonInit({ workflow: 'qualify-lead', input }));
    await expectError(await run(lead), 400, 'challenge_required');
    await expectError(await run({ ...lead, 'cf-turnstile-response': 'bad-token' }), 400, 'challenge_failed');
  });
});
