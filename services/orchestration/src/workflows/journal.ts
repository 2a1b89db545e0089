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
 *
 * The statements are written as SQL text with their parameters and handed to
 * Kysely compiled: built through its `sql` template, every row's values became
 * operation nodes that were frozen, visited and compiled again for each batch
 * (about 50 µs of CPU per run in a profile of the 3-step benchmark workflow).
 */
import { CompiledQuery, type Kysely } from 'kysely';
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
  const postgres = database.dialect === 'postgres';
  const parts: Part[] = [];
  if (runs.length > 0) parts.push(insertRuns(runs, owner, leaseMs));
  if (steps.length > 0) parts.push(upsertSteps(steps, owner, postgres));
  if (ends.length > 0) parts.push(endRuns(ends, owner));
  const written = postgres
    ? await inOneStatement(database.kysely, parts)
    : await inOneTransaction(database.kysely, parts);
  return entries.map((entry) => {
    if (entry.kind === 'run') return written.made.has(entry.run.runId);
    if (entry.kind === 'end') return written.ended.has(entry.runId);
    const recorded = written.recorded.has(stepKey(entry.runId, entry.step.id));
    return recorded && (!entry.end || written.ended.has(entry.runId));
  });
}

/**
 * SQL text whose parameters are written as `?` and numbered when the statement is
 * put together (`$1`, `$2`, … on PostgreSQL), so parts can be joined in any order.
 */
interface Text {
  sql: string;
  values: unknown[];
}

/** One statement of the batch: its input rows (a `with` item, if any), the statement, and what it reports. */
interface Part {
  tag: keyof Written;
  rows?: Text;
  statement: Text;
}

/** `(?, ?, …), (?, ?, …)`: one parenthesized list per row, its values in order. */
function valuesOf(rows: readonly (readonly unknown[])[]): Text {
  const width = rows[0]!.length;
  const row = `(${new Array(width).fill('?').join(', ')})`;
  return { sql: new Array(rows.length).fill(row).join(', '), values: rows.flat() };
}

function insertRuns(runs: readonly Of<'run'>[], owner: string, leaseMs: number): Part {
  const rows = valuesOf(
    runs.map(({ run, now }) => [
      run.runId,
      run.workflow,
      run.idemKey,
      JSON.stringify(run.input),
      run.inputHash,
      'running',
      owner,
      now + leaseMs,
      now,
      now,
    ]),
  );
  // A key already taken, by an earlier run or by one of this batch, makes no run.
  const sql = `insert into wf_runs
      (run_id, workflow, idem_key, input, input_hash, status, owner, lease_until, created_at, updated_at)
    values ${rows.sql}
    on conflict (workflow, idem_key) do nothing
    returning run_id, null as step_id`;
  return { tag: 'made', statement: { sql, values: rows.values } };
}

function upsertSteps(steps: readonly Of<'step'>[], owner: string, postgres: boolean): Part {
  const values = valuesOf(
    steps.map(({ runId, step, outcome, now }) => [
      runId,
      step.id,
      step.position,
      step.type,
      outcome.status,
      outcome.attempts,
      outcome.output === undefined ? null : JSON.stringify(outcome.output),
      outcome.error ?? null,
      outcome.latencyMs,
      now - outcome.latencyMs,
      now,
    ]),
  );
  const rows = {
    sql: `step_rows
      (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
    as (values ${values.sql})`,
    values: values.values,
  };
  const lock = postgres ? ' for share' : '';
  const sql = `insert into wf_steps
      (run_id, step_id, position, type, status, attempts, output, error, latency_ms, started_at, finished_at)
    select v.run_id, v.step_id, cast(v.position as integer), v.type, v.status, cast(v.attempts as integer),
      v.output, v.error, cast(v.latency_ms as integer), cast(v.started_at as bigint), cast(v.finished_at as bigint)
    from step_rows v
    where exists (
      select 1 from wf_runs
      where wf_runs.run_id = v.run_id and wf_runs.owner = ? and wf_runs.status = 'running'${lock}
    )
    on conflict (run_id, step_id) do update set
      status = excluded.status, attempts = excluded.attempts, output = excluded.output, error = excluded.error,
      latency_ms = excluded.latency_ms, finished_at = excluded.finished_at
    returning run_id, step_id`;
  return { tag: 'recorded', rows, statement: { sql, values: [owner] } };
}

function endRuns(ends: readonly { runId: string; end: RunEnd; now: number }[], owner: string): Part {
  const values = valuesOf(
    ends.map(({ runId, end: { status, result, error }, now }) => [
      runId,
      status,
      result === undefined ? null : JSON.stringify(result),
      error === undefined ? null : JSON.stringify(error),
      now,
    ]),
  );
  const rows = {
    sql: `end_rows (run_id, status, result, error, updated_at) as (values ${values.sql})`,
    values: values.values,
  };
  const sql = `update wf_runs set
      status = e.status, result = e.result, error = e.error, owner = null, updated_at = cast(e.updated_at as bigint)
    from end_rows e
    where wf_runs.run_id = e.run_id and wf_runs.owner = ? and wf_runs.status = 'running'
    returning wf_runs.run_id, null as step_id`;
  return { tag: 'ended', rows, statement: { sql, values: [owner] } };
}

type Reported = { run_id: string; step_id: string | null };

function collect(into: Written, tag: keyof Written, rows: readonly Reported[]) {
  for (const row of rows) into[tag].add(tag === 'recorded' ? stepKey(row.run_id, row.step_id!) : row.run_id);
}

const nothingYet = (): Written => ({ made: new Set(), recorded: new Set(), ended: new Set() });

/** The texts joined into one query; on PostgreSQL each `?` becomes `$n`, in order. */
function query<Row>(texts: readonly (Text | string)[], postgres: boolean): CompiledQuery<Row> {
  let sql = '';
  const values: unknown[] = [];
  for (const text of texts) {
    if (typeof text === 'string') {
      sql += text;
      continue;
    }
    let next = values.length;
    sql += postgres ? text.sql.replace(/\?/g, () => `$${++next}`) : text.sql;
    values.push(...text.values);
  }
  return CompiledQuery.raw(sql, values) as CompiledQuery<Row>;
}

/** PostgreSQL: every part a data-modifying CTE of one statement, tagged rows out. */
async function inOneStatement(db: Kysely<Tables>, parts: readonly Part[]): Promise<Written> {
  const texts: (Text | string)[] = ['with '];
  parts.forEach((part, i) => {
    if (part.rows) texts.push(part.rows, ', ');
    texts.push(`part_${i} as (`, part.statement, i < parts.length - 1 ? '), ' : ') ');
  });
  texts.push(
    parts.map((part, i) => `select '${part.tag}' as tag, run_id, step_id from part_${i}`).join(' union all '),
  );
  const { rows } = await db.executeQuery(query<Reported & { tag: keyof Written }>(texts, true));
  const written = nothingYet();
  for (const row of rows) collect(written, row.tag, [row]);
  return written;
}

/** SQLite: the parts one after another in one transaction (one when there is a single part). */
async function inOneTransaction(db: Kysely<Tables>, parts: readonly Part[]): Promise<Written> {
  const run = async (executor: Kysely<Tables>) => {
    const written = nothingYet();
    for (const part of parts) {
      const texts = part.rows ? ['with ', part.rows, ' ', part.statement] : [part.statement];
      collect(written, part.tag, (await executor.executeQuery(query<Reported>(texts, false))).rows);
    }
    return written;
  };
  return parts.length === 1 ? run(db) : db.transaction().execute(run);
}
