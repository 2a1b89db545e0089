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

const done = (result: unknown) => ({ status: 'done' as const, result, error: undefined });

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
    await expect(first.finishRun('run_a', done({}))).rejects.toBeInstanceOf(LostLease);
    expect((await second.steps('run_a')).map((s) => s.step_id)).toEqual(['one']);

    await second.finishStep('run_a', { ...step, id: 'two', position: 1 }, ok);
    await second.finishRun('run_a', done({ fine: true }));
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
    await expect(crashed.finishRun('run_leased', done({}))).rejects.toBeInstanceOf(LostLease);
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

  it('records a last step and ends its run in one commit, or neither once the lease is lost', async () => {
    const opened = await target.open('orchestration');
    await migrate(opened, migrations);
    const database = opened as OrchestrationDatabase;
    const stalled = new RunStore(database, 'instance-a', 50);
    const current = new RunStore(database, 'instance-b', 60_000);
    const step = { id: 'last', position: 0, type: 'connector' };
    const ok = { status: 'ok' as const, attempts: 1, latencyMs: 3, output: { n: 1 } };
    const claim = (store: RunStore, runId: string) =>
      store.claimNewRun({ runId, workflow: 'w', idemKey: null, inputHash: null, input: {} });
    await claim(stalled, 'run_lost');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await current.claimAbandoned()).toEqual(['run_lost']);
    await claim(stalled, 'run_kept');

    // Both records go into one batch: the one whose lease is gone fails alone, and writes nothing.
    const [lost, kept] = await Promise.allSettled([
      stalled.finishStep('run_lost', step, ok, done({ n: 1 })),
      stalled.finishStep('run_kept', step, ok, done({ n: 2 })),
    ]);
    expect(lost.status === 'rejected' && lost.reason).toBeInstanceOf(LostLease);
    expect(kept.status).toBe('fulfilled');
    expect(await current.steps('run_lost')).toEqual([]);
    expect((await current.run('run_lost'))?.status).toBe('running');
    expect((await current.steps('run_kept')).map((s) => [s.step_id, s.status])).toEqual([['last', 'ok']]);
    const ended = await current.run('run_kept');
    expect([ended?.status, ended?.result, ended?.owner]).toEqual(['done', '{"n":2}', null]);
  });
});
