/**
 * Profiles the orchestration service during the workflow benchmark's load (the
 * 3-step connector workflow, 16 clients) on SQLite or PostgreSQL, with the V8 CPU
 * profiler running only while the measured load runs. Writes `<out>.cpuprofile`
 * and prints CPU µs per run, per thread.
 *
 *   node --conditions=xv-source --import tsx bench/profile/workflows-profile.ts sqlite|postgres [out]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { orchestrationService } from '@xv/orchestration';
import { openDatabase } from '@xv/platform';
import { listen } from '@xv/platform/http';
import { buildService } from '@xv/platform/service';
import { runLoad } from '../lib/load.js';
import { BENCH_WORKFLOW, startUpstream, workflowEnv } from '../lib/workflows.js';

/** SQL_TIMES=1: wall µs each SQLite statement spends in better-sqlite3, per run (its shape: values lists folded). */
const sqlTimes = new Map<string, { calls: number; micros: number }>();
let timing = false;
if (process.env.SQL_TIMES === '1') {
  const SQLite = createRequire(import.meta.url)('better-sqlite3');
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1'));
  probe.close();
  for (const method of ['all', 'run', 'get']) {
    const original = proto[method];
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      if (!timing) return original.apply(this, args);
      const start = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        const shape = this.source
          .replace(/\(\?(, *\?)*[^)]*\)(, *\(\?(, *\?)*[^)]*\))+/g, '(…)…')
          .slice(0, 120);
        const entry = sqlTimes.get(shape) ?? { calls: 0, micros: 0 };
        entry.calls += 1;
        entry.micros += Number(process.hrtime.bigint() - start) / 1000;
        sqlTimes.set(shape, entry);
      }
    };
  }
}

/** PG_QUERIES=1: PostgreSQL queries per run, by their shape. */
const pgQueries = new Map<string, number>();
if (process.env.PG_QUERIES === '1') {
  const pg = createRequire(import.meta.url)('pg');
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: unknown, config: unknown, ...rest: unknown[]) {
    if (timing) {
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
const profile = process.env.PROFILE !== '0';

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
const session = new Session();
session.connect();
try {
  const run = {
    url: `http://127.0.0.1:${server.port}/api/wf`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ workflow: BENCH_WORKFLOW, input: { tag: 'bench' } }),
    connections: 16,
  };
  await runLoad({ ...run, durationSeconds: 4 });
  if (profile) {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 250) });
    await session.post('Profiler.start');
  }
  timing = true;
  const load = await runLoad({ ...run, durationSeconds: seconds });
  timing = false;
  if (profile) {
    const { profile: cpu } = await session.post('Profiler.stop');
    writeFileSync(`${out}.cpuprofile`, JSON.stringify(cpu));
  }
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
  for (const [shape, t] of [...sqlTimes].sort((a, b) => b[1].micros - a[1].micros))
    console.log(
      `${(t.micros / load.answered).toFixed(1).padStart(6)} µs/run ${(t.calls / load.answered).toFixed(3)} calls/run  ${shape}`,
    );
} finally {
  session.disconnect();
  await server.close(1000);
  await built.close();
  if (which === 'postgres') await database.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await database.close();
  await upstream.close();
}
