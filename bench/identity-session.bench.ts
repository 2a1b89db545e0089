/**
 * `GET /api/session`, the platform's hottest call, against the `/healthz` baseline
 * of the same identity service in the same run (64 connections each). Reported
 * twice: with the in-process session cache (default) and without it (every
 * request reads the database).
 */
import { identityService } from '@xv/identity';
import { defineBenchmark, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const CONNECTIONS = 64;
const SECONDS = 8;

async function registerSomeone(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: `bench-${Date.now()}@example.test`,
      password: 'benchmark-password',
      name: 'Bench',
      orgName: 'Bench Org',
    }),
    redirect: 'manual',
  });
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]!)
    .find((pair) => pair.startsWith('xv_session='));
  if (!cookie) throw new Error(`registration failed with ${response.status}`);
  return cookie;
}

async function measure(url: string, headers: Record<string, string> = {}, connections = CONNECTIONS) {
  await runLoad({ url, headers, connections: 16, durationSeconds: 2 }); // warm-up
  return runLoad({ url, headers, connections, durationSeconds: SECONDS });
}

export default defineBenchmark({
  name: 'identity-session',
  description:
    'GET /api/session vs GET /healthz of the identity service, requests/s and p99 at 64 connections',
  async run() {
    const cached = await serveForBench(identityService);
    const uncached = await serveForBench(identityService, { XV_IDENTITY_SESSION_CACHE_MS: '0' });
    try {
      const healthz = await measure(`${cached.url}/healthz`);
      const cookie = await registerSomeone(cached.url);
      const session = await measure(`${cached.url}/api/session`, { cookie });
      // At 64 connections latency is mostly queueing (64 / throughput); at 8 it shows the call itself.
      const light = await measure(`${cached.url}/api/session`, { cookie }, 8);
      const uncachedCookie = await registerSomeone(uncached.url);
      const noCache = await measure(`${uncached.url}/api/session`, { cookie: uncachedCookie });
      return {
        healthzRequestsPerSecond: round(healthz.requestsPerSecond),
        healthzP99Ms: healthz.p99Ms,
        sessionRequestsPerSecond: round(session.requestsPerSecond),
        sessionP50Ms: session.p50Ms,
        sessionP99Ms: session.p99Ms,
        sessionThroughputRatio: round(session.requestsPerSecond / healthz.requestsPerSecond),
        sessionP50MsAt8Connections: light.p50Ms,
        sessionP99MsAt8Connections: light.p99Ms,
        uncachedSessionRequestsPerSecond: round(noCache.requestsPerSecond),
        uncachedSessionP99Ms: noCache.p99Ms,
        uncachedSessionThroughputRatio: round(noCache.requestsPerSecond / healthz.requestsPerSecond),
        errors:
          healthz.errors +
          healthz.non2xx +
          session.errors +
          session.non2xx +
          light.errors +
          light.non2xx +
          noCache.errors +
          noCache.non2xx,
      };
    } finally {
      await cached.close();
      await uncached.close();
    }
  },
});
