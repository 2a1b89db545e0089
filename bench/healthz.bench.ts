/**
 * The baseline every HTTP benchmark is compared with: a service's `/healthz`
 * through the whole platform middleware stack, under load from a second process.
 */
import { identityService } from '@xv/identity';
import { defineBenchmark, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

export default defineBenchmark({
  name: 'healthz',
  description: 'requests/s and p50/p99 latency of GET /healthz (identity) at 64 connections',
  async run() {
    const service = await serveForBench(identityService);
    try {
      await runLoad({ url: `${service.url}/healthz`, connections: 16, durationSeconds: 2 }); // warm-up
      const result = await runLoad({ url: `${service.url}/healthz`, connections: 64, durationSeconds: 10 });
      return {
        requestsPerSecond: round(result.requestsPerSecond),
        p50Ms: result.p50Ms,
        p99Ms: result.p99Ms,
        requests: result.requests,
        errors: result.errors + result.non2xx,
      };
    } finally {
      await service.close();
    }
  },
});
