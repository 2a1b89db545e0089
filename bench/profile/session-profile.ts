/**
 * Profiles identity's server under `GET /api/session` (one signed-in person's
 * cookie), `GET /healthz`, or `post`: the small JSON POST of
 * `bench/platform-overhead.bench.ts` (`POST /api/did/verify` of a token that does
 * not parse), 64 connections as in `bench/identity-session.bench.ts`,
 * with the V8 CPU profiler running only while the measured load runs. Writes
 * `<out>.cpuprofile` and prints server CPU µs per request.
 *
 *   node --conditions=xv-source --import tsx bench/profile/session-profile.ts session|healthz|post [out]
 */
import { identityService } from '@xv/identity';
import { signUp } from '../lib/identity.js';
import { type LoadOptions, runLoad } from '../lib/load.js';
import { serveForBench } from '../lib/services.js';
import { profiled } from './profiler.js';

const which = process.argv[2] ?? 'session';
const out = process.argv[3] ?? `/tmp/identity-${which}`;

const service = await serveForBench(identityService);
try {
  const { url } = service;
  const person = await signUp(url);
  const loads: Record<string, LoadOptions> = {
    session: { url: `${url}/api/session`, headers: { cookie: person.cookie } },
    healthz: { url: `${url}/healthz` },
    post: {
      url: `${url}/api/did/verify`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: 'not-a-credential' }),
    },
  };
  const load: LoadOptions = { ...loads[which]!, connections: 64 };
  await runLoad({ ...load, durationSeconds: 3 });
  const measured = await profiled(out, () =>
    runLoad({ ...load, durationSeconds: Number(process.env.SECONDS ?? 8) }),
  );
  console.log(
    JSON.stringify({
      which,
      answered: measured.answered,
      errors: measured.errors + measured.non2xx,
      requestsPerSecond: Math.round(measured.requestsPerSecond),
      serverMicrosPerRequest: Math.round((measured.cpuSeconds * 1e6) / Math.max(1, measured.answered)),
    }),
  );
} finally {
  await service.close();
}
