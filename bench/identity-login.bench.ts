/**
 * Password sign-in throughput (`POST /api/auth/login`, the form post answering
 * 303 with a new session). Bounded by argon2id by design (about 19 MiB and two
 * passes per attempt), so it is reported on its own, not against a baseline.
 */
import { identityService } from '@xv/identity';
import { defineBenchmark, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

async function login(url: string, headers: Record<string, string>, body: string) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers,
    body,
    redirect: 'manual',
  });
  return response.headers.get('location');
}

export default defineBenchmark({
  name: 'identity-login',
  description: 'POST /api/auth/login (argon2id-bound) sign-ins per second and latency at 8 connections',
  async run() {
    const service = await serveForBench(identityService);
    try {
      const email = `login-bench-${Date.now()}@example.test`;
      const password = 'benchmark-password';
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const registered = await fetch(`${service.url}/api/auth/register`, {
        method: 'POST',
        headers: form,
        body: new URLSearchParams({ email, password, name: 'Bench', orgName: 'Bench Org' }),
        redirect: 'manual',
      });
      if (registered.status !== 303) throw new Error(`registration failed with ${registered.status}`);
      const body = new URLSearchParams({ email, password }).toString();
      const load = { url: `${service.url}/api/auth/login`, method: 'POST', headers: form, body };
      await runLoad({ ...load, connections: 4, durationSeconds: 2 }); // warm-up
      const result = await runLoad({ ...load, connections: 8, durationSeconds: 8 });
      return {
        loginsPerSecond: round(result.requestsPerSecond),
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        requests: result.requests,
        errors: result.errors,
        // Every sign-in answers 303; one more afterwards must still land on /account (no lockout, no error page).
        stillSigningIn: (await login(service.url, form, body)) === '/account',
      };
    } finally {
      await service.close();
    }
  },
});
