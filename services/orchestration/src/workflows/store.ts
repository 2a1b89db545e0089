/**
 * @module workflows/store
 * Runs and step results in the database. A run belongs to the instance that
 * holds its lease (`owner`, `lease_until`); every write of a step result checks
 * that lease in the same statement, so an instance that lost a run can never
 * overwrite what its new owner does.
 */

import { GroupCommit } from '@xv/platform';
import type { OrchestrationDatabase, WorkflowRunsTable, WorkflowStepsTable } from '../db.js';
import {
  type JournalEntry,
  type NewRun,
  type RunEnd,
  type StepOutcomeRecord,
  type StepRef,
  writeJournal,
} from './journal.js';

export type { NewRun, RunEnd, StepOutcomeRecord, StepRef } from './journal.js';

export type RunRow = WorkflowRunsTable;
export type StepRow = WorkflowStepsTable;

/** The lease was taken over (or the run finished elsewhere): stop working on the run. */
export class LostLease extends Error {
  override name = 'LostLease';
}

/**
 * Most writes in one batch: at most 12 parameters each, well under SQLite's and
 * PostgreSQL's bounds on the parameters of a statement.
 */
const MAX_BATCH = 200;

export class RunStore {
  /** New runs, step records and run ends are written by group commit (`journal.ts`). */
  private readonly journal: GroupCommit<JournalEntry, boolean>;

  constructor(
    private readonly database: OrchestrationDatabase,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {
    // SQLite has one connection: a second batch in flight would only wait for it.
    const options = { maxBatch: MAX_BATCH, maxInFlight: database.dialect === 'postgres' ? 4 : 1 };
    this.journal = new GroupCommit((entries) => writeJournal(database, owner, leaseMs, entries), options);
  }

  private get db() {
    return this.database.kysely;
  }

  /**
   * Creates a running run owned by us; with an idemKey already used for the workflow, creates nothing and
   * returns null. `inputHash` binds the key to the input (null without a key).
   */
  async claimNewRun(run: NewRun): Promise<string | null> {
    return (await this.journal.write({ kind: 'run', run, now: Date.now() })) ? run.runId : null;
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
   * Records a step's outcome, only while we still own the run (LostLease otherwise): the statement writes
   * nothing for a run whose lease is gone. On PostgreSQL the run row is share-locked by the check, so a
   * takeover cannot slip in between. With `end` (the step ends the run), the run is ended in the same
   * commit. Resolves once the record is committed.
   */
  async finishStep(runId: string, step: StepRef, outcome: StepOutcomeRecord, end?: RunEnd) {
    const entry = { kind: 'step' as const, runId, step, outcome, now: Date.now(), ...(end ? { end } : {}) };
    if (!(await this.journal.write(entry))) throw new LostLease();
  }

  /** Ends the run, only while we still own it (LostLease otherwise). Resolves once committed. */
  async finishRun(runId: string, end: RunEnd) {
    if (!(await this.journal.write({ kind: 'end', runId, end, now: Date.now() }))) throw new LostLease();
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
