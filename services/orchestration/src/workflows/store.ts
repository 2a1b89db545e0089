/**
 * @module workflows/store
 * Runs and step results in the database. A run belongs to the instance that
 * holds its lease (`owner`, `lease_until`); every write of a step result checks
 * that lease in the same transaction, so an instance that lost a run can never
 * overwrite what its new owner does.
 */
import { transaction } from '@xv/platform';
import type { OrchestrationDatabase, WorkflowRunsTable, WorkflowStepsTable } from '../db.js';

export type RunRow = WorkflowRunsTable;
export type StepRow = WorkflowStepsTable;

/** The lease was taken over (or the run finished elsewhere): stop working on the run. */
export class LostLease extends Error {
  override name = 'LostLease';
}

export class RunStore {
  constructor(
    private readonly database: OrchestrationDatabase,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {}

  private get db() {
    return this.database.kysely;
  }

  /** Creates a running run owned by us; with an idemKey already used for the workflow, creates nothing and returns null. */
  async claimNewRun(run: { runId: string; workflow: string; idemKey: string | null; input: unknown }) {
    const now = Date.now();
    const row = await this.db
      .insertInto('wf_runs')
      .values({
        run_id: run.runId,
        workflow: run.workflow,
        idem_key: run.idemKey,
        input: JSON.stringify(run.input),
        status: 'running',
        result: null,
        error: null,
        owner: this.owner,
        lease_until: now + this.leaseMs,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(['workflow', 'idem_key']).doNothing())
      .returning('run_id')
      .executeTakeFirst();
    return row?.run_id ?? null;
  }

  async runIdForKey(workflow: string, idemKey: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('wf_runs')
      .select('run_id')
      .where('workflow', '=', workflow)
      .where('idem_key', '=', idemKey)
      .executeTakeFirst();
    return row?.run_id;
  }

  run(runId: string): Promise<RunRow | undefined> {
    return this.db.selectFrom('wf_runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
  }

  steps(runId: string): Promise<StepRow[]> {
    return this.db
      .selectFrom('wf_steps')
      .selectAll()
      .where('run_id', '=', runId)
      .orderBy('position')
      .execute();
  }

  /** Records a step's outcome, and renews the lease, only while we still own the run. */
  async finishStep(
    runId: string,
    step: { id: string; position: number; type: string },
    outcome: {
      status: 'ok' | 'failed';
      attempts: number;
      latencyMs: number;
      output?: unknown;
      error?: string;
    },
  ) {
    await transaction(this.database, async (trx) => {
      const now = Date.now();
      const owned = await trx
        .updateTable('wf_runs')
        .set({ lease_until: now + this.leaseMs, updated_at: now })
        .where('run_id', '=', runId)
        .where('owner', '=', this.owner)
        .where('status', '=', 'running')
        .executeTakeFirst();
      if (Number(owned.numUpdatedRows) === 0) throw new LostLease();
      const result = {
        status: outcome.status,
        attempts: outcome.attempts,
        latency_ms: outcome.latencyMs,
        output: outcome.output === undefined ? null : JSON.stringify(outcome.output),
        error: outcome.error ?? null,
        finished_at: now,
      };
      await trx
        .insertInto('wf_steps')
        .values({
          run_id: runId,
          step_id: step.id,
          position: step.position,
          type: step.type,
          started_at: now - outcome.latencyMs,
          ...result,
        })
        .onConflict((oc) => oc.columns(['run_id', 'step_id']).doUpdateSet(result))
        .execute();
    });
  }

  async finishRun(runId: string, status: 'done' | 'failed', result: unknown, error: unknown) {
    const now = Date.now();
    const updated = await this.db
      .updateTable('wf_runs')
      .set({
        status,
        result: result === undefined ? null : JSON.stringify(result),
        error: error === undefined ? null : JSON.stringify(error),
        owner: null,
        updated_at: now,
      })
      .where('run_id', '=', runId)
      .where('owner', '=', this.owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new LostLease();
  }

  async renewLease(runId: string) {
    const now = Date.now();
    await this.db
      .updateTable('wf_runs')
      .set({ lease_until: now + this.leaseMs })
      .where('run_id', '=', runId)
      .where('owner', '=', this.owner)
      .where('status', '=', 'running')
      .execute();
  }

  /** Takes over running runs whose lease has run out (their instance stopped or crashed). */
  async claimAbandoned(limit = 20): Promise<string[]> {
    const now = Date.now();
    const candidates = await this.db
      .selectFrom('wf_runs')
      .select('run_id')
      .where('status', '=', 'running')
      .where('lease_until', '<', now)
      .limit(limit)
      .execute();
    const claimed: string[] = [];
    for (const { run_id } of candidates) {
      const result = await this.db
        .updateTable('wf_runs')
        .set({ owner: this.owner, lease_until: now + this.leaseMs, updated_at: now })
        .where('run_id', '=', run_id)
        .where('status', '=', 'running')
        .where('lease_until', '<', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) claimed.push(run_id);
    }
    return claimed;
  }

  /** On a graceful stop: let the next start (or another instance) resume our runs at once. */
  async releaseLeases() {
    await this.db
      .updateTable('wf_runs')
      .set({ lease_until: 0 })
      .where('owner', '=', this.owner)
      .where('status', '=', 'running')
      .execute();
  }
}
