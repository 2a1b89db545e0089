/**
 * Profiles the orchestration service during the workflow benchmark's load (the
 * 3-step connector workflow, 16 clients) on SQLite or PostgreSQL, with the V8 CPU
 * profiler running only while the measured load runs. Writes `<out>.cpuprofile`
 * and prints CPU µs per run, per thread.
 *
 *   node --conditions=xv-source --import tsx bench/profile/workflows-profile.ts sqlite|postgres [out]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestrationService } from '@xv/orchestration';
import { openDatabase } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService } from '@xv/platform/service';
import { runLoad } from '../lib/load.js';
import { BENCH_WORKFLOW, startUpstream, workflowEnv } from '../lib/workflows.js';
import { profiled, SqliteStatementTimes } from './profiler.js';

/** SQL_TIMES=1: wall µs each SQLite statement spends in better-sqlite3, per run (values lists folded). */
const sqlTimes = new SqliteStatementTimes((source) =>
  source.replace(/\(\?(, *\?)*[^)]*\)(, *\(\?(, *\?)*[^)]*\))+/g, '(…)…').slice(0, 120),
);

/** PG_QUERIES=1: PostgreSQL queries per run, by their shape. */
const pgQueries = new Map<string, number>();
if (process.env.PG_QUERIES === '1') {
  const pg = createRequire(import.meta.url)('pg');
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    if (sqlTimes.on) {
      const text = typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '?');
      const shape = text
        .replace(/\$\d+/g, '$')
        .replace(/\((\$, *)+\$\)(, *\((\$, *)+\$\))*/g, '(…)')
        .replace(/\s+/g, ' ')
        .slice(0, 110);
      pgQueries.set(shape, (pgQueries.get(shape) ?? 0) + 1);
    }
    return original.call(this, config, ...rest);
  };
}

const which = process.argv[2] ?? 'sqlite';
const out = process.argv[3] ?? `/tmp/workflows-${which}`;
const seconds = Number(process.env.SECONDS ?? 10);

const upstream = await startUpstream();
const dataDir = mkdtempSync(join(tmpdir(), 'xv-profile-workflows-'));
const schema = `profile_orchestration_${randomBytes(4).toString('hex')}`;
const database =
  which === 'postgres'
    ? await openDatabase({
        service: 'orchestration',
        url: process.env.XV_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
        schema,
      })
    : await openDatabase({ service: 'orchestration', dataDir });
const built = await buildService(orchestrationService, {
  database,
  env: { ...workflowEnv(upstream.host), XV_DATA_DIR: dataDir },
});
const server = await listen(built.app, 0, '127.0.0.1');
try {
  const run = {
    url: `http://127.0.0.1:${server.port}/api/wf`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflow: BENCH_WORKFLOW, input: { tag: 'bench' } }),
    connections: 16,
  };
  await runLoad({ ...run, durationSeconds: 4 });
  const load = await profiled(out, async () => {
    sqlTimes.on = true;
    const result = await runLoad({ ...run, durationSeconds: seconds });
    sqlTimes.on = false;
    return result;
  });
  console.log(
    JSON.stringify({
      which,
      runs: load.answered,
      errors: load.errors + load.non2xx,
      runsPerSecond: Math.round(load.requestsPerSecond),
      cpuMicrosPerRun: Math.round((load.cpuSeconds * 1e6) / Math.max(1, load.answered)),
      p50Ms: load.p50Ms,
    }),
  );
  for (const [shape, calls] of [...pgQueries].sort((a, b) => b[1] - a[1]))
    console.log(`${(calls / load.answered).toFixed(3)} queries/run  ${shape}`);
  for (const line of sqlTimes.report(load.answered, 'run')) console.log(line);
} finally {
  await server.close(1000);
  await built.close();
  if (which === 'postgres') await database.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await database.close();
  await upstream.close();
}
