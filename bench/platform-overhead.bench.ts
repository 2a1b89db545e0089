/**
 * The platform's fixed cost per request: the server CPU that every answer pays
 * for the middleware stack of `createApp` (request id, request log line, metrics,
 * security headers, CSP, body limit, CSRF) whatever the route does.
 *
 * Identity runs in this process on a real port; the load comes from a child process
 * (autocannon, 16 connections, keep-alive), so only the server's CPU is counted:
 * process.cpuUsage() of this process over the load window ÷ answered requests, after
 * a warm-up run of the same request. Three requests that answer at once:
 * - `GET /healthz`: `{ok, service}`;
 * - `GET /vc/IdentityCredential`: a JSON GET through an OpenAPI route (path
 *   parameter validated, public CORS);
 * - `POST /api/did/verify` `{"token":"not-a-credential"}`: a small JSON POST through
 *   an OpenAPI route (body read and validated, public CORS), answered
 *   `{"valid":false,…}` at once as the token does not parse.
 * The same-run baseline is a bare Hono app on `@hono/node-server` answering the
 * same `/healthz` JSON with no middleware: what Node's HTTP server and the adapter
 * cost by themselves. `…OverheadMicros` is a figure minus that floor.
 *
 * The database side of the fixed cost: CPU µs per `SELECT … WHERE id = ? AND
 * realm = ?` on SQLite (1,000 rows, by primary key), built by Kysely's query
 * builder on every call (the baseline) and compiled once by `compileQuery`
 * (`packages/platform/src/db/compiled-query.ts`), 20,000 queries each, one at a time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { identityService } from '@xv/identity';
import { compileQuery, openDatabase, type Param } from '@xv/platform';
import { Hono } from 'hono';
import { cpuSecondsOf, defineBenchmark, round } from './lib/harness.js';
import { type LoadOptions, runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const CONNECTIONS = 16;
const SECONDS = 5;

/** Server CPU µs per answered request under load; every answer must be 2xx. */
async function cpuMicrosPerRequest(options: LoadOptions): Promise<number> {
  await runLoad({ ...options, connections: CONNECTIONS, durationSeconds: 2 }); // warm-up
  let result: Awaited<ReturnType<typeof runLoad>> | undefined;
  const cpu = await cpuSecondsOf(async () => {
    result = await runLoad({ ...options, connections: CONNECTIONS, durationSeconds: SECONDS });
  });
  if (!result || result.errors + result.non2xx > 0 || result.requests === 0)
    throw new Error(`${options.method ?? 'GET'} ${options.url}: ${JSON.stringify(result)}`);
  return (cpu * 1e6) / result.requests;
}

async function bareHonoHealthz(): Promise<number> {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ ok: true, service: 'identity' }));
  const { server, url } = await new Promise<{ server: ReturnType<typeof serve>; url: string }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({ server, url: `http://127.0.0.1:${info.port}` }),
    );
  });
  try {
    return await cpuMicrosPerRequest({ url: `${url}/healthz` });
  } finally {
    await new Promise((done) => server.close(done));
  }
}

const QUERIES = 20_000;

type Tables = { notes: { id: string; realm: string; body: string; created_at: number } };

/** CPU µs per SELECT by primary key on SQLite: built on every call, and compiled once. */
async function selectMicros(): Promise<{ built: number; compiled: number }> {
  const database = await openDatabase<Tables>({
    service: 'bench',
    file: join(mkdtempSync(join(tmpdir(), 'xv-bench-query-')), 'bench.sqlite'),
  });
  try {
    const db = database.kysely;
    await db.schema
      .createTable('notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `note_${i}`,
      realm: 'default',
      body: `note ${i}`,
      created_at: i,
    }));
    await db.insertInto('notes').values(rows).execute();
    const select = (id: string, realm: string) =>
      db
        .selectFrom('notes')
        .select(['id', 'body', 'created_at'])
        .where('id', '=', id)
        .where('realm', '=', realm);
    const compiled = compileQuery(db, (param: Param<{ id: string; realm: string }>) =>
      select(param('id'), param('realm')),
    );
    const perQuery = async (run: (id: string) => Promise<unknown>) => {
      for (let i = 0; i < 2000; i++) await run(`note_${i % 1000}`); // warm-up
      return (
        ((await cpuSecondsOf(async () => {
          for (let i = 0; i < QUERIES; i++) await run(`note_${i % 1000}`);
        })) *
          1e6) /
        QUERIES
      );
    };
    return {
      built: await perQuery((id) => select(id, 'default').executeTakeFirst()),
      compiled: await perQuery((id) => compiled.takeFirst({ id, realm: 'default' })),
    };
  } finally {
    await database.close();
  }
}

export default defineBenchmark({
  name: 'platform-overhead',
  description:
    'server CPU µs per request for /healthz, a JSON GET and a small JSON POST (identity) vs bare Hono',
  baselines: ['bareHonoHealthzCpuMicros', 'selectBuiltCpuMicros'],
  async run() {
    const query = await selectMicros();
    const bare = await bareHonoHealthz();
    const service = await serveForBench(identityService);
    try {
      const healthz = await cpuMicrosPerRequest({ url: `${service.url}/healthz` });
      const jsonGet = await cpuMicrosPerRequest({ url: `${service.url}/vc/IdentityCredential` });
      const jsonPost = await cpuMicrosPerRequest({
        url: `${service.url}/api/did/verify`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: 'not-a-credential' }),
      });
      return {
        bareHonoHealthzCpuMicros: round(bare),
        healthzCpuMicros: round(healthz),
        jsonGetCpuMicros: round(jsonGet),
        jsonPostCpuMicros: round(jsonPost),
        healthzOverheadMicros: round(healthz - bare),
        jsonPostOverheadMicros: round(jsonPost - bare),
        selectBuiltCpuMicros: round(query.built),
        selectCompiledCpuMicros: round(query.compiled),
        selectCompiledRatio: round(query.compiled / query.built),
      };
    } finally {
      await service.close();
    }
  },
});
