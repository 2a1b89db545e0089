/**
 * Lease fencing: an instance that lost a run (its lease ran out and another
 * instance took over) can no longer write the run's step results or finish it.
 */
import { migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { OrchestrationDatabase } from '../src/db.js';
import { migrations } from '../src/migrations/index.js';
import { LostLease, RunStore } from '../src/workflows/store.js';

describeEachDatabase('run leases', (target) => {
  it('lets only the current owner write step results', async () => {
    const opened = await target.open('orchestration');
    await migrate(opened, migrations);
    const database = opened as OrchestrationDatabase;
    const first = new RunStore(database, 'instance-a', 50);
    const second = new RunStore(database, 'instance-b', 60_000);
    const step = { id: 'one', position: 0, type: 'connector' };
    const ok = { status: 'ok' as const, attempts: 1, latencyMs: 3, output: { n: 1 } };

    await first.claimNewRun({ runId: 'run_a', workflow: 'w', idemKey: null, inputHash: null, input: {} });
    await first.finishStep('run_a', step, ok);
    // Instance A stalls past its lease; B takes the run over.
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await second.claimAbandoned()).toEqual(['run_a']);
    expect(await first.claimAbandoned()).toEqual([]);

    await expect(first.finishStep('run_a', { ...step, id: 'two', position: 1 }, ok)).rejects.toBeInstanceOf(
      LostLease,
    );
    await expect(first.finishRun('run_a', 'done', {}, undefined)).rejects.toBeInstanceOf(LostLease);
    expect((await second.steps('run_a')).map((s) => s.step_id)).toEqual(['one']);

    await second.finishStep('run_a', { ...step, id: 'two', position: 1 }, ok);
    await second.finishRun('run_a', 'done', { fine: true }, undefined);
    expect((await second.run('run_a'))?.status).toBe('done');
    expect((await second.steps('run_a')).map((s) => s.step_id)).toEqual(['one', 'two']);
  });

  it('takes every running run of another owner over at a single-instance start', async () => {
    const opened = await target.open('orchestration');
    await migrate(opened, migrations);
    const database = opened as OrchestrationDatabase;
    const crashed = new RunStore(database, 'instance-a', 60_000);
    const restarted = new RunStore(database, 'instance-b', 60_000);
    await crashed.claimNewRun({
      runId: 'run_leased',
      workflow: 'w',
      idemKey: null,
      inputHash: null,
      input: {},
    });
    expect(await restarted.claimAbandoned()).toEqual([]);
    expect(await restarted.claimAbandoned({ evenIfLeased: true })).toEqual(['run_leased']);
    expect(await restarted.claimAbandoned({ evenIfLeased: true })).toEqual([]);
    await expect(crashed.finishRun('run_leased', 'done', {}, undefined)).rejects.toBeInstanceOf(LostLease);
  });

  it('claims an idempotency key once per workflow', async () => {
    const opened = await target.open('orchestration');
    await migrate(opened, migrations);
    const database = opened as OrchestrationDatabase;
    const store = new RunStore(database, 'instance-a', 60_000);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.claimNewRun({ runId: `run_${i}`, workflow: 'w', idemKey: 'same', inputHash: 'h', input: {} }),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(
      await store.claimNewRun({
        runId: 'run_other',
        workflow: 'v',
        idemKey: 'same',
        inputHash: 'h',
        input: {},
      }),
    ).toBe('run_other');
  });
});
