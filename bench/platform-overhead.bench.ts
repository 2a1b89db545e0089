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
 */
import { serve } from '@hono/node-server';
import { identityService } from '@xv/identity';
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

export default defineBenchmark({
  name: 'platform-overhead',
  description:
    'server CPU µs per request for /healthz, a JSON GET and a small JSON POST (identity) vs bare Hono',
  baselines: ['bareHonoHealthzCpuMicros'],
  async run() {
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
      };
    } finally {
      await service.close();
    }
  },
});
