/**
 * @module workflows/store
 * Runs and step results in the database. A run belongs to the instance that
 * holds its lease (`owner`, `lease_until`); every write of a step result checks
 * that lease in the same statement, so an instance that lost a run can never
 * overwrite what its new owner does.
 */
import { type Kysely, sql } from 'kysely';
import type { OrchestrationDatabase, Tables, WorkflowRunsTable, WorkflowStepsTable } from '../db.js';
import { GroupCommit } from './group-commit.js';

export type RunRow = WorkflowRunsTable;
export type StepRow = WorkflowStepsTable;

/** The lease was taken over (or the run finished elsewhere): stop working on the run. */
export class LostLease extends Error {
  override name = 'LostLease';
}

export interface NewRun {
  runId: string;
  workflow: string;
  idemKey: string | null;
  inputHash: string | null;
  input: unknown;
}

export interface StepRef {
  id: string;
  position: number;
  type: string;
}

export interface StepOutcomeRecord {
  status: 'ok' | 'failed';
  attempts: number;
  latencyMs: number;
  output?: unknown;
  error?: string;
}

/**
 * Most writes in one statement: 11 parameters a step record, well under SQLite's
 * and PostgreSQL's bounds on parameters.
 */
const MAX_BATCH = 200;

export class RunStore {
  /** New runs, step records and run ends are written by group commit (`group-commit.ts`). */
  private readonly claims: GroupCommit<NewRun & { now: number }, boolean>;
  private readonly stepRecords: GroupCommit<StepRecord, boolean>;
  private readonly runEnds: GroupCommit<RunEndRecord, boolean>;

  constructor(
    private readonly database: OrchestrationDatabase,
    private readonly owner: string,
    private readonly leaseMs: number,
  ) {
    // SQLite has one connection: a second batch in flight would only wait for it.
    const options = { maxBatch: MAX_BATCH, maxInFlight: database.dialect === 'postgres' ? 4 : 1 };
    this.claims = new GroupCommit((runs) => this.insertRuns(runs), options);
    this.stepRecords = new GroupCommit((records) => this.writeStepRecords(records), options);
    this.runEnds = new GroupCommit((ends) => this.writeRunEnds(this.db, ends), options);
  }

  private get db() {
    return this.database.kysely;
  }

  /**
   * Creates a running run owned by us; with an idemKey already used for the workflow, creates nothing and
   * returns null. `inputHash` binds the key to the input (null without a key).
   */
  async claimNewRun(run: NewRun): Promise<string | null> {
    return (await this.claims.write({ ...run, now: Date.now() })) ? run.runId : null;
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
    const now = Date.now();
    if (!(await this.stepRecords.write({ runId, step, outcome, now, end }))) throw new LostLease();
  }

  /** Ends the run, only while we still own it (LostLease otherwise). Resolves once committed. */
  async finishRun(runId: string, end: RunEnd) {
    if (!(await this.runEnds.write({ runId, end, now: Date.now() }))) throw new LostLease();
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

  /** One insert for the batch; a run whose idemKey is taken (by an earlier run or one in the batch) is not made. */
  private async insertRuns(runs: readonly (NewRun & { now: number })[]): Promise<boolean[]> {
    const made = await this.db
      .insertInto('wf_runs')
      .values(
        runs.map((run) => ({
          run_id: run.runId,
          workflow: run.workflow,
          idem_key: run.idemKey,
          input: JSON.stringify(run.input),
          input_hash: run.inputHash,
          status: 'running',
          result: null,
          error: null,
          owner: this.owner,
          lease_until: run.now + this.leaseMs,
          created_at: run.now,
          updated_at: run.now,
        })),
      )
      .onConflict((oc) => oc.columns(['workflow', 'idem_key']).doNothing())
      .returning('run_id')
      .execute();
    const ids = new Set(made.map((row) => row.run_id));
    return runs.map((run) => ids.has(run.runId));
  }

  /** The batch's step records, and the ends of the runs they end, in one commit. */
  private async writeStepRecords(records: readonly StepRecord[]): Promise<boolean[]> {
    const ending = records.flatMap(({ runId, end, now }) => (end ? [{ runId, end, now }] : []));
    if (ending.length === 0) return this.upsertSteps(this.db, records);
    return this.db.transaction().execute(async (trx) => {
      const written = await this.upsertSteps(trx, records);
      const endedFlags = await this.writeRunEnds(trx, ending);
      const ended = new Set(ending.filter((_, i) => endedFlags[i]).map((e) => e.runId));
      // Both check the same lease in one transaction, so a record and its run's end take together.
      return records.map((record, i) => written[i]! && (!record.end || ended.has(record.runId)));
    });
  }

  /** One upsert for the batch, each row written only while its run is ours and running. */
  private async upsertSteps(db: Executor, records: readonly StepRecord[]): Promise<boolean[]> {
    const rows = records.map(({ runId, step, outcome, now }) => {
      const output = outcome.output === undefined ? null : JSON.stringify(outcome.output);
      return sql`(${runId}, ${step.id}, ${step.position}, ${step.type}, ${outcome.status}, ${outcome.attempts},
        ${output}, ${outcome.error ?? null}, ${outcome.latencyMs}, ${now - outcome.latencyMs}, ${now})`;
    });
    const lock = this.database.dialect === 'postgres' ? sql` for share` : sql``;
    const written = await sql<{ run_id: string; step_id: string }>`
      with v (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
        as (values ${sql.join(rows)})
      insert into wf_steps
        (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
      select v.run_id, v.step_id, cast(v.position as integer), v.type, v.status, cast(v.attempts as integer),
        v.output, v.error, cast(v.latency_ms as integer), cast(v.started_at as bigint), cast(v.finished_at as bigint)
      from v
      where exists (
        select 1 from wf_runs
        where wf_runs.run_id = v.run_id and wf_runs.owner = ${this.owner} and wf_runs.status = 'running'${lock}
      )
      on conflict (run_id, step_id) do update set
        status = excluded.status, attempts = excluded.attempts, output = excluded.output, error = excluded.error,
        latency_ms = excluded.latency_ms, finished_at = excluded.finished_at
      returning run_id, step_id`.execute(db);
    const keys = new Set(written.rows.map((row) => `${row.run_id} ${row.step_id}`));
    return records.map(({ runId, step }) => keys.has(`${runId} ${step.id}`));
  }

  /** One update for the batch, each run ended only while it is ours and running. */
  private async writeRunEnds(db: Executor, ends: readonly RunEndRecord[]): Promise<boolean[]> {
    const rows = ends.map(({ runId, end: { status, result, error }, now }) => {
      const resultText = result === undefined ? null : JSON.stringify(result);
      const errorText = error === undefined ? null : JSON.stringify(error);
      return sql`(${runId}, ${status}, ${resultText}, ${errorText}, ${now})`;
    });
    const ended = await sql<{ run_id: string }>`
      with v (run_id, status, result, error, updated_at) as (values ${sql.join(rows)})
      update wf_runs set
        status = v.status, result = v.result, error = v.error, owner = null,
        updated_at = cast(v.updated_at as bigint)
      from v
      where wf_runs.run_id = v.run_id and wf_runs.owner = ${this.owner} and wf_runs.status = 'running'
      returning wf_runs.run_id`.execute(db);
    const ids = new Set(ended.rows.map((row) => row.run_id));
    return ends.map(({ runId }) => ids.has(runId));
  }
}

/** How a run ends: done with its result, or failed with `{step, message}`. */
export interface RunEnd {
  status: 'done' | 'failed';
  result: unknown;
  error: unknown;
}

interface StepRecord {
  runId: string;
  step: StepRef;
  outcome: StepOutcomeRecord;
  now: number;
  /** The step ends the run: ended in the same commit. */
  end: RunEnd | undefined;
}

interface RunEndRecord {
  runId: string;
  end: RunEnd;
  now: number;
}

/** The database, or a transaction on it. */
type Executor = Kysely<Tables>;
