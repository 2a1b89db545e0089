/**
 * Workflow throughput: runs/s of a 3-step connector workflow (three `http` calls
 * to a local upstream, each step's result written as it finishes) at 16
 * concurrent clients, on SQLite and on PostgreSQL. The baseline is the same
 * service's `/healthz` in the same run, in three alternating rounds (medians; the
 * ratio is the median of each round's ratio). PostgreSQL is measured when
 * `XV_BENCH_DATABASE_URL` (default: the local test server) answers.
 *
 * The CPU figures are this process's CPU (service, upstream and database driver;
 * autocannon runs in a child process) over each load window, divided by the
 * requests answered: they judge progress on a busy machine, where runs/s cannot.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestrationService } from '@xv/orchestration';
import { type Database, openDatabase } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService } from '@xv/platform/service';
import { defineBenchmark, type Figures, round } from './lib/harness.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { BENCH_WORKFLOW, startUpstream, workflowEnv } from './lib/workflows.js';

/** Rounds of /healthz then the workflow; each figure is the median of its rounds. */
const ROUNDS = 3;
const POSTGRES_URL = process.env.XV_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** CPU milliseconds this process spent per request answered. */
const cpuMsPerRequest = (load: LoadResult) => (load.cpuSeconds * 1000) / Math.max(1, load.requests);

async function measure(database: Database, env: Record<string, string>, prefix: string): Promise<Figures> {
  const built = await buildService(orchestrationService, { database, env });
  const server = await listen(built.app, 0, '127.0.0.1');
  const url = `http://127.0.0.1:${server.port}`;
  try {
    const run = {
      url: `${url}/api/wf`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: BENCH_WORKFLOW, input: { tag: 'bench' } }),
    };
    await runLoad({ ...run, connections: 8, durationSeconds: 2 }); // warm-up
    // Alternating rounds, medians: the machine's speed drifts, and one /healthz sample then one run
    // sample read that drift as the workflow's cost.
    const rounds: { healthz: LoadResult; runs: LoadResult }[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const healthz = await runLoad({ url: `${url}/healthz`, connections: 16, durationSeconds: 4 });
      const runs = await runLoad({ ...run, connections: 16, durationSeconds: 6 });
      rounds.push({ healthz, runs });
    }
    const median = (pick: (round: (typeof rounds)[number]) => number) =>
      rounds.map(pick).sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
    const runsPerSecond = median((r) => r.runs.requestsPerSecond);
    const healthzPerSecond = median((r) => r.healthz.requestsPerSecond);
    return {
      [`${prefix}RunsPerSecond`]: round(runsPerSecond),
      [`${prefix}P50Ms`]: median((r) => r.runs.p50Ms),
      [`${prefix}P99Ms`]: median((r) => r.runs.p99Ms),
      [`${prefix}HealthzRequestsPerSecond`]: round(healthzPerSecond),
      [`${prefix}VsHealthzRatio`]: round(
        median((r) => r.runs.requestsPerSecond / r.healthz.requestsPerSecond),
      ),
      [`${prefix}CpuMsPerRun`]: round(median((r) => cpuMsPerRequest(r.runs))),
      [`${prefix}CpuMsPerHealthz`]: round(median((r) => cpuMsPerRequest(r.healthz))),
      [`${prefix}Errors`]: rounds.reduce((sum, r) => sum + r.runs.errors + r.runs.non2xx, 0),
    };
  } finally {
    await server.close(1000);
    await built.close();
  }
}

export default defineBenchmark({
  name: 'orchestration-workflows',
  description: 'runs/s of a 3-step connector workflow on SQLite and PostgreSQL (16 clients), vs /healthz',
  goals: [
    { figure: 'sqliteVsHealthzRatio', atLeast: 0.045, says: 'SQLite runs/s vs /healthz' },
    { figure: 'postgresVsHealthzRatio', atLeast: 0.036, says: 'PostgreSQL runs/s vs /healthz' },
    { figure: 'sqliteRunsPerSecond', atLeast: 1000, says: 'SQLite runs/s on a quiet 2-core machine' },
    { figure: 'postgresRunsPerSecond', atLeast: 800, says: 'PostgreSQL runs/s on a quiet 2-core machine' },
    { figure: 'sqliteErrors', atMost: 0, says: 'every SQLite run answered 200' },
    { figure: 'postgresErrors', atMost: 0, says: 'every PostgreSQL run answered 200' },
  ],
  baselines: ['sqliteHealthzRequestsPerSecond', 'postgresHealthzRequestsPerSecond'],
  async run() {
    const upstream = await startUpstream();
    const env = workflowEnv(upstream.host);
    const figures: Figures = {};
    try {
      const dataDir = mkdtempSync(join(tmpdir(), 'xv-bench-orchestration-'));
      const sqlite = await openDatabase({ service: 'orchestration', dataDir });
      try {
        Object.assign(figures, await measure(sqlite, { ...env, XV_DATA_DIR: dataDir }, 'sqlite'));
      } finally {
        await sqlite.close();
      }
      const schema = `bench_orchestration_${randomBytes(4).toString('hex')}`;
      const postgres = await openDatabase({ service: 'orchestration', url: POSTGRES_URL, schema }).catch(
        () => undefined,
      );
      if (!postgres) {
        figures.postgres = 'skipped: no PostgreSQL at XV_BENCH_DATABASE_URL';
        return figures;
      }
      try {
        Object.assign(figures, await measure(postgres, { ...env, XV_DATA_DIR: dataDir }, 'postgres'));
      } finally {
        await postgres.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await postgres.close();
      }
      return figures;
    } finally {
      await upstream.close();
    }
  },
});
