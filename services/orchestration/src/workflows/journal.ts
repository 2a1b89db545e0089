/**
 * @module workflows/journal
 * The writes a run waits for (its creation, each step's record, its end), as one
 * batch of a group commit (`GroupCommit` of `@xv/platform`): new runs are inserted, step
 * records upserted and runs ended, each kind by one multi-row statement, all in
 * one commit. On PostgreSQL that commit is a single statement (the three are
 * data-modifying CTEs): each round trip to the server costs more CPU than the rows
 * it carries. On SQLite it is one transaction.
 *
 * Every step record and run end checks the run's lease in its statement (the
 * run row share-locked on PostgreSQL), and says, through RETURNING, whether it
 * took. No batch holds a run's creation with its later writes (those wait for the
 * creation), so nothing in a batch depends on another write of the same batch.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { OrchestrationDatabase, Tables } from '../db.js';

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

/** How a run ends: done with its result, or failed with `{step, message}`. */
export interface RunEnd {
  status: 'done' | 'failed';
  result: unknown;
  error: unknown;
}

export type JournalEntry =
  | { kind: 'run'; run: NewRun; now: number }
  /** With `end`, the step ends its run: both take, or neither. */
  | { kind: 'step'; runId: string; step: StepRef; outcome: StepOutcomeRecord; end?: RunEnd; now: number }
  | { kind: 'end'; runId: string; end: RunEnd; now: number };

type Of<K extends JournalEntry['kind']> = Extract<JournalEntry, { kind: K }>;

/** What the statements report back: which runs were made, which step records and run ends took. */
interface Written {
  made: Set<string>;
  recorded: Set<string>;
  ended: Set<string>;
}

const stepKey = (runId: string, stepId: string) => `${runId} ${stepId}`;

/** Writes the entries in one commit; answers, entry by entry, whether each took. */
export async function writeJournal(
  database: OrchestrationDatabase,
  owner: string,
  leaseMs: number,
  entries: readonly JournalEntry[],
): Promise<boolean[]> {
  const runs = entries.filter((e): e is Of<'run'> => e.kind === 'run');
  const steps = entries.filter((e): e is Of<'step'> => e.kind === 'step');
  const ends: { runId: string; end: RunEnd; now: number }[] = entries.flatMap((e) =>
    e.kind === 'end' || (e.kind === 'step' && e.end) ? [{ runId: e.runId, end: e.end!, now: e.now }] : [],
  );
  const parts: Part[] = [];
  if (runs.length > 0) parts.push(insertRuns(runs, owner, leaseMs));
  if (steps.length > 0) parts.push(upsertSteps(steps, owner, database.dialect === 'postgres'));
  if (ends.length > 0) parts.push(endRuns(ends, owner));
  const written =
    database.dialect === 'postgres'
      ? await inOneStatement(database.kysely, parts)
      : await inOneTransaction(database.kysely, parts);
  return entries.map((entry) => {
    if (entry.kind === 'run') return written.made.has(entry.run.runId);
    if (entry.kind === 'end') return written.ended.has(entry.runId);
    const recorded = written.recorded.has(stepKey(entry.runId, entry.step.id));
    return recorded && (!entry.end || written.ended.has(entry.runId));
  });
}

/** One statement of the batch: its input rows (a `with` item, if any), the statement, and what it reports. */
interface Part {
  tag: keyof Written;
  values?: RawBuilder<unknown>;
  statement: RawBuilder<unknown>;
}

function insertRuns(runs: readonly Of<'run'>[], owner: string, leaseMs: number): Part {
  const rows = runs.map(
    ({ run, now }) => sql`(${run.runId}, ${run.workflow}, ${run.idemKey}, ${JSON.stringify(run.input)},
      ${run.inputHash}, 'running', null, null, ${owner}, ${now + leaseMs}, ${now}, ${now})`,
  );
  // A key already taken, by an earlier run or by one of this batch, makes no run.
  const statement = sql`insert into wf_runs
      (run_id, workflow, idem_key, input, input_hash, status, result, error, owner, lease_until, created_at, updated_at)
    values ${sql.join(rows)}
    on conflict (workflow, idem_key) do nothing
    returning run_id, null as step_id`;
  return { tag: 'made', statement };
}

function upsertSteps(steps: readonly Of<'step'>[], owner: string, postgres: boolean): Part {
  const rows = steps.map(({ runId, step, outcome, now }) => {
    const output = outcome.output === undefined ? null : JSON.stringify(outcome.output);
    return sql`(${runId}, ${step.id}, ${step.position}, ${step.type}, ${outcome.status}, ${outcome.attempts},
      ${output}, ${outcome.error ?? null}, ${outcome.latencyMs}, ${now - outcome.latencyMs}, ${now})`;
  });
  const values = sql`step_rows
      (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
    as (values ${sql.join(rows)})`;
  const lock = postgres ? sql` for share` : sql``;
  const statement = sql`insert into wf_steps
      (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
    select v.run_id, v.step_id, cast(v.position as integer), v.type, v.status, cast(v.attempts as integer),
      v.output, v.error, cast(v.latency_ms as integer), cast(v.started_at as bigint), cast(v.finished_at as bigint)
    from step_rows v
    where exists (
      select 1 from wf_runs
      where wf_runs.run_id = v.run_id and wf_runs.owner = ${owner} and wf_runs.status = 'running'${lock}
    )
    on conflict (run_id, step_id) do update set
      status = excluded.status, attempts = excluded.attempts, output = excluded.output, error = excluded.error,
      latency_ms = excluded.latency_ms, finished_at = excluded.finished_at
    returning run_id, step_id`;
  return { tag: 'recorded', values, statement };
}

function endRuns(ends: readonly { runId: string; end: RunEnd; now: number }[], owner: string): Part {
  const rows = ends.map(({ runId, end: { status, result, error }, now }) => {
    const resultText = result === undefined ? null : JSON.stringify(result);
    const errorText = error === undefined ? null : JSON.stringify(error);
    return sql`(${runId}, ${status}, ${resultText}, ${errorText}, ${now})`;
  });
  const values = sql`end_rows (run_id, status, result, error, updated_at) as (values ${sql.join(rows)})`;
  const statement = sql`update wf_runs set
      status = e.status, result = e.result, error = e.error, owner = null, updated_at = cast(e.updated_at as bigint)
    from end_rows e
    where wf_runs.run_id = e.run_id and wf_runs.owner = ${owner} and wf_runs.status = 'running'
    returning wf_runs.run_id, null as step_id`;
  return { tag: 'ended', values, statement };
}

type Reported = { run_id: string; step_id: string | null };

function collect(into: Written, tag: keyof Written, rows: readonly Reported[]) {
  for (const row of rows) into[tag].add(tag === 'recorded' ? stepKey(row.run_id, row.step_id!) : row.run_id);
}

const nothingYet = (): Written => ({ made: new Set(), recorded: new Set(), ended: new Set() });

/** PostgreSQL: every part a data-modifying CTE of one statement, tagged rows out. */
async function inOneStatement(db: Kysely<Tables>, parts: readonly Part[]): Promise<Written> {
  const items = parts.flatMap((part, i) => [
    ...(part.values ? [part.values] : []),
    sql`${sql.raw(`part_${i}`)} as (${part.statement})`,
  ]);
  const reports = parts.map(
    (part, i) => sql`select ${sql.lit(part.tag)} as tag, run_id, step_id from ${sql.raw(`part_${i}`)}`,
  );
  const { rows } = await sql<Reported & { tag: keyof Written }>`
    with ${sql.join(items)} ${sql.join(reports, sql` union all `)}`.execute(db);
  const written = nothingYet();
  for (const row of rows) collect(written, row.tag, [row]);
  return written;
}

/** SQLite: the parts one after another in one transaction (one when there is a single part). */
async function inOneTransaction(db: Kysely<Tables>, parts: readonly Part[]): Promise<Written> {
  const run = async (executor: Kysely<Tables>) => {
    const written = nothingYet();
    for (const part of parts) {
      const statement = part.values ? sql`with ${part.values} ${part.statement}` : part.statement;
      collect(written, part.tag, (await sql<Reported>`${statement}`.execute(executor)).rows);
    }
    return written;
  };
  return parts.length === 1 ? run(db) : db.transaction().execute(run);
}
