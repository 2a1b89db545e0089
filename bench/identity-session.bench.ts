/**
 * `GET /api/session`, the platform's hottest call, against the `/healthz` baseline
 * of the same identity service in the same run (64 connections each), with the
 * in-process session cache (default) and without it (every request reads the
 * database), in three alternating rounds (medians). Then at scale: one instance each with 10,000 and with 100,000 live
 * sessions stored, cache on and off, each request presenting a different one of
 * them in turn, measured in alternating rounds (medians of three after a warm-up
 * round), and how each figure grows from 10k to 100k.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityService, type Tables } from '@xv/identity';
import { type Database, hashToken, newId, newSecretToken, openDatabase } from '@xv/platform';
import { defineBenchmark, type Figures, round } from './lib/harness.js';
import { signUp } from './lib/identity.js';
import { type LoadOptions, type LoadResult, runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const CONNECTIONS = 64;
const SECONDS = 8;
/** Rounds of /healthz, the cached and the uncached session (each after one warm-up), for the goal's figures. */
const GOAL_ROUNDS = 3;
const GOAL_SECONDS = 5;
const SIZES = [10_000, 100_000];
const SEED_BATCH = 500;
/** Rounds over the instances at scale; the first is a warm-up and is not kept. */
const SCALE_ROUNDS = 4;
const SCALE_SECONDS = 5;

interface ScaleInstance {
  size: number;
  mode: 'cached' | 'uncached';
  url: string;
  cookies: string[];
  rounds: LoadResult[];
}

function medianOf(results: LoadResult[], pick: (result: LoadResult) => number): number {
  const sorted = results.map(pick).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Stores `count` more live password sessions of the person who registered, straight into the
 * `sessions` table with the row `SessionStore.create` writes (the SHA-256 of a fresh `xss` token as
 * key), and returns their cookies. All belong to one account: the lookup `GET /api/session` makes
 * (by token hash, joined to the user, then the user's memberships) costs the same either way.
 */
export async function seedSessions(database: Database<Tables>, count: number): Promise<string[]> {
  const owner = await database.kysely
    .selectFrom('sessions')
    .select(['realm_id', 'user_id'])
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const cookies: string[] = [];
  await database.kysely.transaction().execute(async (trx) => {
    for (let done = 0; done < count; done += SEED_BATCH) {
      const rows = [];
      for (let i = done; i < Math.min(count, done + SEED_BATCH); i++) {
        const token = newSecretToken('xss');
        cookies.push(`xv_session=${token}`);
        rows.push({
          token_hash: hashToken(token),
          id: newId('ses'),
          realm_id: owner.realm_id,
          user_id: owner.user_id,
          amr: '["pwd"]',
          aal: 'AAL1',
          auth_time: now,
          aal2_at: null,
          aal3_at: null,
          created_at: now,
          last_seen_at: now,
          expires_at: now + 7 * 24 * 3600_000,
          user_agent: 'bench',
          address: '127.0.0.1',
        });
      }
      await trx.insertInto('sessions').values(rows).execute();
    }
  });
  return cookies;
}

/** The identity service on its own SQLite file, with that database at hand for seeding. */
export async function serveIdentity(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'xv-bench-identity-'));
  const database = await openDatabase<Tables>({ service: 'identity', dataDir });
  const service = await serveForBench(identityService, { XV_DATA_DIR: dataDir, ...env }, database);
  return {
    url: service.url,
    database,
    async close() {
      await service.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function measure(url: string, options: { headers?: Record<string, string>; cookies?: string[] } = {}) {
  const headerSets = options.cookies?.map((cookie) => ({ cookie }));
  await runLoad({ url, headers: options.headers, headerSets, connections: 16, durationSeconds: 2 }); // warm-up
  return runLoad({
    url,
    headers: options.headers,
    headerSets,
    connections: CONNECTIONS,
    durationSeconds: SECONDS,
  });
}

const signUpCookie = async (url: string) => (await signUp(url)).cookie;

const failures = (...results: LoadResult[]) => results.reduce((sum, r) => sum + r.errors + r.non2xx, 0);

export default defineBenchmark({
  name: 'identity-session',
  description:
    'GET /api/session vs GET /healthz of the identity service (64 connections), one session and then 10k and 100k live sessions, cache on and off',
  baselines: ['healthzRequestsPerSecond', 'variedHealthzRequestsPerSecond'],
  goals: [
    { figure: 'sessionThroughputRatio', atLeast: 0.6, says: 'GET /api/session vs /healthz' },
    { figure: 'sessionP99MsAt8Connections', atMost: 10, says: 'GET /api/session p99 at 8 connections' },
  ],
  async run() {
    const cached = await serveIdentity();
    const uncached = await serveIdentity({ XV_IDENTITY_SESSION_CACHE_MS: '0' });
    const spares: { close(): Promise<void> }[] = [];
    try {
      const cookie = await signUpCookie(cached.url);
      const uncachedCookie = await signUpCookie(uncached.url);
      // The goal's figures in alternating rounds (medians), so a drift of the machine's speed between two
      // single measurements is not read as the cost of a session.
      const loads: Record<'healthz' | 'session' | 'noCache', LoadOptions> = {
        healthz: { url: `${cached.url}/healthz` },
        session: { url: `${cached.url}/api/session`, headers: { cookie } },
        noCache: { url: `${uncached.url}/api/session`, headers: { cookie: uncachedCookie } },
      };
      const rounds: Record<keyof typeof loads, LoadResult[]> = { healthz: [], session: [], noCache: [] };
      for (const load of Object.values(loads))
        await runLoad({ ...load, connections: 16, durationSeconds: 2 });
      for (let i = 0; i < GOAL_ROUNDS; i++)
        for (const [name, load] of Object.entries(loads) as [keyof typeof loads, LoadOptions][])
          rounds[name].push(
            await runLoad({ ...load, connections: CONNECTIONS, durationSeconds: GOAL_SECONDS }),
          );
      const rate = (name: keyof typeof loads) => medianOf(rounds[name], (r) => r.requestsPerSecond);
      const p99 = (name: keyof typeof loads) => medianOf(rounds[name], (r) => r.p99Ms);
      await runLoad({
        url: `${cached.url}/api/session`,
        headers: { cookie },
        connections: 8,
        durationSeconds: 2,
      });
      const light = await runLoad({
        url: `${cached.url}/api/session`,
        headers: { cookie },
        connections: 8,
        durationSeconds: SECONDS,
      });
      const figures: Figures = {
        healthzRequestsPerSecond: round(rate('healthz')),
        healthzP99Ms: p99('healthz'),
        sessionRequestsPerSecond: round(rate('session')),
        sessionP50Ms: medianOf(rounds.session, (r) => r.p50Ms),
        sessionP99Ms: p99('session'),
        sessionThroughputRatio: round(rate('session') / rate('healthz')),
        sessionP50MsAt8Connections: light.p50Ms,
        sessionP99MsAt8Connections: light.p99Ms,
        uncachedSessionRequestsPerSecond: round(rate('noCache')),
        uncachedSessionP99Ms: p99('noCache'),
        uncachedSessionThroughputRatio: round(rate('noCache') / rate('healthz')),
      };
      let errors = failures(light, ...Object.values(rounds).flat());

      // Varying every request costs the load generator more than a fixed one: the baseline of the
      // figures at scale is /healthz through the same varying generator.
      const variedHealthz = await measure(`${cached.url}/healthz`, { cookies: [cookie] });
      figures.variedHealthzRequestsPerSecond = round(variedHealthz.requestsPerSecond);
      errors += failures(variedHealthz);
      // One instance per size and cache mode, each seeded once, measured in alternating rounds
      // (medians kept): the machine's load drifts over minutes, and measuring one size after the
      // other would report that drift as growth.
      const instances: ScaleInstance[] = [];
      for (const size of SIZES)
        for (const mode of ['cached', 'uncached'] as const) {
          const fresh = await serveIdentity(mode === 'cached' ? {} : { XV_IDENTITY_SESSION_CACHE_MS: '0' });
          spares.push(fresh);
          await signUpCookie(fresh.url);
          instances.push({
            size,
            mode,
            url: fresh.url,
            cookies: await seedSessions(fresh.database, size),
            rounds: [],
          });
        }
      for (let round = 0; round < SCALE_ROUNDS; round++)
        for (const instance of instances) {
          const result = await runLoad({
            url: `${instance.url}/api/session`,
            headerSets: instance.cookies.map((cookie) => ({ cookie })),
            connections: CONNECTIONS,
            durationSeconds: round === 0 ? SECONDS : SCALE_SECONDS,
          });
          if (round > 0) instance.rounds.push(result);
          errors += failures(result);
        }
      const of = (size: number, mode: ScaleInstance['mode']) =>
        instances.find((i) => i.size === size && i.mode === mode)!;
      for (const instance of instances) {
        const label = `sessions${instance.size / 1000}k${instance.mode === 'cached' ? '' : 'Uncached'}`;
        const throughput = medianOf(instance.rounds, (r) => r.requestsPerSecond);
        figures[`${label}RequestsPerSecond`] = round(throughput);
        figures[`${label}P50Ms`] = medianOf(instance.rounds, (r) => r.p50Ms);
        figures[`${label}P99Ms`] = medianOf(instance.rounds, (r) => r.p99Ms);
        figures[`${label}ThroughputRatio`] = round(throughput / variedHealthz.requestsPerSecond);
      }
      const [small, large] = SIZES;
      for (const mode of ['cached', 'uncached'] as const) {
        const prefix = mode === 'cached' ? 'sessionsGrowth' : 'sessionsGrowthUncached';
        const at = (size: number, pick: (r: LoadResult) => number) => medianOf(of(size, mode).rounds, pick);
        figures[`${prefix}ThroughputRatio`] = round(
          at(large!, (r) => r.requestsPerSecond) / at(small!, (r) => r.requestsPerSecond),
        );
        figures[`${prefix}P99Ratio`] = round(
          at(large!, (r) => r.p99Ms) /
            Math.max(
              1,
              at(small!, (r) => r.p99Ms),
            ),
        );
      }
      figures.errors = errors;
      return figures;
    } finally {
      await cached.close();
      await uncached.close();
      for (const spare of spares) await spare.close();
    }
  },
});
