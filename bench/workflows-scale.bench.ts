/**
 * Workflows as the stored work grows: runs/s of the 3-step connector workflow (16
 * clients) and reading one run (`GET /api/wf?id=`, a different stored run each
 * request, 16 clients) on an empty database and on one with 1,000,000 finished
 * runs and their 3,000,000 step records stored. Growth = at 1M ÷ empty, in the same
 * run. SQLite, and PostgreSQL when `XV_BENCH_DATABASE_URL` (default: the local test
 * server) answers. The interface has no listing of runs, so none is measured.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestrationService } from '@xv/orchestration';
import { type Database, openDatabase } from '@xv/platform';
import { sql } from 'kysely';
import { defineBenchmark, type Figures, percentile, round } from './lib/harness.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';
import { BENCH_WORKFLOW, startUpstream, workflowEnv } from './lib/workflows.js';

const POSTGRES_URL = process.env.XV_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const STORED_RUNS = Number(process.env.XV_BENCH_STORED_RUNS ?? 1_000_000);
const SECONDS = 4;
const ROUNDS = 3;
const READ_SAMPLE = 10_000;

/**
 * Stores `count` finished runs, each a copy of the finished run `templateRunId` (its row and its step
 * records, exactly as the service wrote them) under a fresh id of the service's shape (`run_` and 26
 * characters), started one millisecond apart before it. One statement per table, generated inside the
 * database: this is the only place that knows how a stored run looks, so a change to the storage of
 * runs or steps changes this function alone.
 */
export async function seedFinishedRuns(database: Database, templateRunId: string, count: number) {
  await database.kysely.transaction().execute(async (trx) => {
    await sql`drop table if exists seed_ids`.execute(trx);
    if (database.dialect === 'postgres')
      await sql`create temporary table seed_ids as
        select i, 'run_' || substr(md5(random()::text || i::text), 1, 26) as run_id
        from generate_series(1, ${count}::integer) as i`.execute(trx);
    else
      await sql`create temporary table seed_ids as
        with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
        select i, 'run_' || lower(hex(randomblob(13))) as run_id from n`.execute(trx);
    await sql`insert into wf_runs (run_id, workflow, idem_key, input, input_hash, status, result, error,
        owner, lease_until, created_at, updated_at)
      select seed.run_id, t.workflow, null, t.input, null, t.status, t.result, t.error,
        null, t.lease_until, t.created_at - seed.i, t.updated_at - seed.i
      from seed_ids seed cross join wf_runs t where t.run_id = ${templateRunId}`.execute(trx);
    await sql`insert into wf_steps (run_id, step_id, position, type, status, attempts, output, error,
        latency_ms, started_at, finished_at)
      select seed.run_id, s.step_id, s.position, s.type, s.status, s.attempts, s.output, s.error,
        s.latency_ms, s.started_at - seed.i, s.finished_at - seed.i
      from seed_ids seed cross join wf_steps s where s.run_id = ${templateRunId}`.execute(trx);
    await sql`drop table seed_ids`.execute(trx);
  });
  // A deployment's old runs have long been vacuumed (hint bits set, visibility map current, statistics
  // fresh); freshly bulk-loaded rows have not, and the first read of each page, or autovacuum waking up
  // in the middle of the measurement, would be counted as the cost of stored work.
  if (database.dialect === 'postgres') await sql`vacuum analyze wf_runs, wf_steps`.execute(database.kysely);
  else await sql`analyze`.execute(database.kysely);
}

async function sampleOfRunIds(database: Database): Promise<string[]> {
  const { rows } = await sql<{ run_id: string }>`
    select run_id from wf_runs where status = 'done' order by random() limit ${READ_SAMPLE}`.execute(
    database.kysely,
  );
  return rows.map((row) => row.run_id);
}

interface Phase {
  runs: LoadResult;
  reads: LoadResult;
}

async function measurePhase(url: string, database: Database): Promise<Phase> {
  const submit = {
    url: `${url}/api/wf`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflow: BENCH_WORKFLOW, input: { tag: 'bench' } }),
  };
  await runLoad({ ...submit, connections: 8, durationSeconds: 1 }); // warm-up
  const runs = await runLoad({ ...submit, connections: 16, durationSeconds: SECONDS });
  const paths = (await sampleOfRunIds(database)).map((id) => `/api/wf?id=${id}`);
  await runLoad({ url: `${url}/api/wf`, paths, connections: 8, durationSeconds: 1 }); // warm-up
  const reads = await runLoad({ url: `${url}/api/wf`, paths, connections: 16, durationSeconds: SECONDS });
  return { runs, reads };
}

/** The median of one figure over the rounds of a phase. */
function median(phases: Phase[], pick: (phase: Phase) => number): number {
  return percentile(phases.map(pick), 50);
}

/**
 * Two instances side by side, one on an empty database and one with the stored runs, measured in
 * alternating rounds (medians kept): the machine's load drifts over minutes, and measuring one size
 * after the other would report that drift as growth.
 */
async function measureDatabase(
  open: (size: string) => Promise<Database>,
  env: Record<string, string>,
  prefix: string,
) {
  const emptyDatabase = await open('empty');
  const storedDatabase = await open('stored');
  const empty = await serveForBench(orchestrationService, env, emptyDatabase);
  const stored = await serveForBench(orchestrationService, env, storedDatabase);
  try {
    const first = await fetch(`${stored.url}/api/wf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: BENCH_WORKFLOW, input: { tag: 'bench' } }),
    });
    const { runId } = (await first.json()) as { runId?: string };
    if (!first.ok || !runId) throw new Error(`the run to copy failed with ${first.status}`);
    const seedStarted = Date.now();
    await seedFinishedRuns(storedDatabase, runId, STORED_RUNS);
    const seedSeconds = (Date.now() - seedStarted) / 1000;
    const rounds = { Empty: [] as Phase[], Stored: [] as Phase[] };
    for (let index = 0; index < ROUNDS; index++) {
      const order = index % 2 === 0 ? (['Empty', 'Stored'] as const) : (['Stored', 'Empty'] as const);
      for (const phase of order) {
        const [service, database] = phase === 'Empty' ? [empty, emptyDatabase] : [stored, storedDatabase];
        rounds[phase].push(await measurePhase(service.url, database));
      }
    }
    const figures: Figures = { [`${prefix}SeedSeconds`]: round(seedSeconds) };
    for (const phase of ['Empty', 'Stored'] as const) {
      const phases = rounds[phase];
      figures[`${prefix}${phase}RunsPerSecond`] = round(median(phases, (p) => p.runs.requestsPerSecond));
      figures[`${prefix}${phase}RunP99Ms`] = median(phases, (p) => p.runs.p99Ms);
      figures[`${prefix}${phase}ReadsPerSecond`] = round(median(phases, (p) => p.reads.requestsPerSecond));
      figures[`${prefix}${phase}ReadP50Ms`] = median(phases, (p) => p.reads.p50Ms);
      figures[`${prefix}${phase}ReadP99Ms`] = median(phases, (p) => p.reads.p99Ms);
    }
    const growth = (figure: string, floor = 0) =>
      round(
        Number(figures[`${prefix}Stored${figure}`]) /
          Math.max(floor, Number(figures[`${prefix}Empty${figure}`])),
      );
    figures[`${prefix}GrowthRunsRatio`] = growth('RunsPerSecond');
    figures[`${prefix}GrowthReadsRatio`] = growth('ReadsPerSecond');
    figures[`${prefix}GrowthReadP99Ratio`] = growth('ReadP99Ms', 1);
    figures[`${prefix}Errors`] = [...rounds.Empty, ...rounds.Stored]
      .flatMap((p) => [p.runs, p.reads])
      .reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    return figures;
  } finally {
    await empty.close();
    await stored.close();
    await emptyDatabase.close();
    await storedDatabase.close();
  }
}

export default defineBenchmark({
  name: 'workflows-scale',
  description: `3-step workflow runs/s and GET /api/wf?id= reads on an empty database and with ${STORED_RUNS.toLocaleString('en-US')} finished runs stored (SQLite, PostgreSQL)`,
  baselines: [
    'sqliteEmptyRunsPerSecond',
    'sqliteEmptyReadsPerSecond',
    'postgresEmptyRunsPerSecond',
    'postgresEmptyReadsPerSecond',
  ],
  async run() {
    const upstream = await startUpstream();
    const dataDir = mkdtempSync(join(tmpdir(), 'xv-bench-workflows-scale-'));
    const env = { ...workflowEnv(upstream.host), XV_DATA_DIR: dataDir };
    const figures: Figures = { storedRuns: STORED_RUNS };
    const schemas: string[] = [];
    try {
      Object.assign(
        figures,
        await measureDatabase(
          (size) =>
            openDatabase({ service: 'orchestration', file: join(dataDir, `orchestration-${size}.sqlite`) }),
          env,
          'sqlite',
        ),
      );
      const postgres = async (size: string) => {
        const schema = `bench_orchestration_${size}_${randomBytes(4).toString('hex')}`;
        schemas.push(schema);
        return openDatabase({ service: 'orchestration', url: POSTGRES_URL, schema });
      };
      const reachable = await postgres('probe')
        .then((probe) => probe.close().then(() => true))
        .catch(() => false);
      if (!reachable) {
        figures.postgres = 'skipped: no PostgreSQL at XV_BENCH_DATABASE_URL';
        return figures;
      }
      Object.assign(figures, await measureDatabase(postgres, env, 'postgres'));
      return figures;
    } finally {
      await dropSchemas(schemas);
      await upstream.close();
      rmSync(dataDir, { recursive: true, force: true }); // the million runs take most of a gigabyte
    }
  },
});

async function dropSchemas(schemas: string[]) {
  if (schemas.length === 0) return;
  const admin = await openDatabase({ service: 'orchestration', url: POSTGRES_URL, schema: schemas[0] }).catch(
    () => undefined,
  );
  for (const schema of schemas) await admin?.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.close();
}
