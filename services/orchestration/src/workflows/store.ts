/**
 * @module workflows/store
 * Runs and step results in the database. A run belongs to the instance that
 * holds its lease (`owner`, `lease_until`); every write of a step result checks
 * that lease in the same statement, so an instance that lost a run can never
 * overwrite what its new owner does.
 */
import { sql } from 'kysely';
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

  /**
   * Creates a running run owned by us; with an idemKey already used for the workflow, creates nothing and
   * returns null. `inputHash` binds the key to the input (null without a key).
   */
  async claimNewRun(run: {
    runId: string;
    workflow: string;
    idemKey: string | null;
    inputHash: string | null;
    input: unknown;
  }) {
    const now = Date.now();
    const row = await this.db
      .insertInto('wf_runs')
      .values({
        run_id: run.runId,
        workflow: run.workflow,
        idem_key: run.idemKey,
        input: JSON.stringify(run.input),
        input_hash: run.inputHash,
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

  /** The run an idemKey made for the workflow, with the hash of the input it was made with. */
  runForKey(workflow: string, idemKey: string) {
    return this.db
      .selectFrom('wf_runs')
      .select(['run_id', 'input_hash'])
      .where('workflow', '=', workflow)
      .where('idem_key', '=', idemKey)
      .executeTakeFirst();
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

  /**
   * Records a step's outcome, only while we still own the run: one statement
   * that writes nothing when the lease is gone. On PostgreSQL the run row is
   * share-locked by the check, so a takeover cannot slip in between.
   */
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
    const now = Date.now();
    const output = outcome.output === undefined ? null : JSON.stringify(outcome.output);
    const lock = this.database.dialect === 'postgres' ? sql` for share` : sql``;
    const written = await sql`
      insert into wf_steps
        (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
      select ${runId}, ${step.id}, cast(${step.position} as integer), ${step.type}, ${outcome.status},
        cast(${outcome.attempts} as integer), ${output}, ${outcome.error ?? null}, cast(${outcome.latencyMs} as integer),
        cast(${now - outcome.latencyMs} as bigint), cast(${now} as bigint)
      where exists (
        select 1 from wf_runs where run_id = ${runId} and owner = ${this.owner} and status = 'running'${lock}
      )
      on conflict (run_id, step_id) do update set
        status = excluded.status, attempts = excluded.attempts, output = excluded.output, error = excluded.error,
        latency_ms = excluded.latency_ms, finished_at = excluded.finished_at`.execute(this.db);
    if (Number(written.numAffectedRows ?? 0) === 0) throw new LostLease();
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

  /**
   * Takes over running runs whose lease has run out (their instance stopped or
   * crashed), or, with `evenIfLeased`, every running run of another owner (a
   * single-instance deployment starting up: whoever held them is gone).
   */
  async claimAbandoned({ limit = 20, evenIfLeased = false } = {}): Promise<string[]> {
    const now = Date.now();
    let candidates = this.db.selectFrom('wf_runs').select('run_id').where('status', '=', 'running');
    candidates = evenIfLeased
      ? candidates.where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '!=', this.owner)]))
      : candidates.where('lease_until', '<', now);
    const claimed: string[] = [];
    for (const { run_id } of await candidates.limit(limit).execute()) {
      let claim = this.db
        .updateTable('wf_runs')
        .set({ owner: this.owner, lease_until: now + this.leaseMs, updated_at: now })
        .where('run_id', '=', run_id)
        .where('status', '=', 'running');
      claim = evenIfLeased
        ? claim.where((eb) => eb.or([eb('owner', 'is', null), eb('owner', '!=', this.owner)]))
        : claim.where('lease_until', '<', now);
      const result = await claim.executeTakeFirst();
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
