/**
 * Router overhead: the same one-line answer from the scripted model server, asked
 * directly (OpenAI chat-completions request) and through `POST /api/route`
 * (platform middleware, validation, rate limit, tier lookup, cooldown, the model
 * layer's call, hops). Client, service and model server share this process, so the
 * two are measured on the same machine state, and a routed request costs exactly
 * the work the router adds. Latency is sampled one request at a time on kept-alive
 * connections, direct and routed interleaved (their order swapped every pair), in
 * rounds whose spread is printed; throughput comes from autocannon in a second
 * process at the same concurrency for both.
 */
import { orchestrationService } from '@xv/orchestration';
import { answer, startModelServer } from '@xv/platform/model-server';
import { defineBenchmark, percentile, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface Samples {
  ms: number[];
  cpuMs: number;
}

const WARM_UP = 1000;
const ROUNDS = 10;
const PER_ROUND = 300;
const GOAL_MS = 1;

/** One request: its wall time, and the CPU time this process spent on it (client, router and model alike). */
async function timed(send: () => Promise<Response>, into: Samples): Promise<number> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (!response.ok) throw new Error(`unexpected status ${response.status}`);
  into.ms.push(ms);
  into.cpuMs += (used.user + used.system) / 1000;
  return ms;
}

export default defineBenchmark({
  name: 'orchestration-router',
  description:
    'POST /api/route vs the model server called directly: p50/p99 overhead (goal: p50 ≤ 1 ms) and requests/s',
  async run() {
    const model = await startModelServer({ record: false, fallback: answer('pong') });
    const service = await serveForBench(orchestrationService, {
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: model.apiKey,
      MODEL_NAME: 'bench-model',
      XV_ORCH_ROUTE_PER_MINUTE: '1000000000',
    });
    const direct: Target = {
      url: `${model.baseUrl}/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${model.apiKey}` },
      body: JSON.stringify({ model: 'bench-model', messages: [{ role: 'user', content: 'ping' }] }),
    };
    const routed: Target = {
      url: `${service.url}/api/route`,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'ping', difficulty: 'balanced' }),
    };
    const send = (target: Target) => () =>
      fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
    try {
      const scratch: Samples = { ms: [], cpuMs: 0 };
      for (let i = 0; i < WARM_UP; i += 1) {
        await timed(send(direct), scratch);
        await timed(send(routed), scratch);
      }
      const directAll: Samples = { ms: [], cpuMs: 0 };
      const routedAll: Samples = { ms: [], cpuMs: 0 };
      const roundOverheads: number[] = [];
      for (let r = 0; r < ROUNDS; r += 1) {
        const directRound: number[] = [];
        const routedRound: number[] = [];
        for (let i = 0; i < PER_ROUND; i += 1) {
          const directFirst = i % 2 === 0;
          if (directFirst) directRound.push(await timed(send(direct), directAll));
          routedRound.push(await timed(send(routed), routedAll));
          if (!directFirst) directRound.push(await timed(send(direct), directAll));
        }
        roundOverheads.push(percentile(routedRound, 50) - percentile(directRound, 50));
      }
      const samples = ROUNDS * PER_ROUND;
      const load = (target: Target) =>
        runLoad({ ...target, method: 'POST', connections: 16, durationSeconds: 5 });
      const directLoad = await load(direct);
      const routedLoad = await load(routed);
      const p = (s: Samples, q: number) => percentile(s.ms, q);
      const overheadP50 = p(routedAll, 50) - p(directAll, 50);
      return {
        samplesEach: samples,
        directP50Ms: round(p(directAll, 50)),
        directP99Ms: round(p(directAll, 99)),
        routeP50Ms: round(p(routedAll, 50)),
        routeP99Ms: round(p(routedAll, 99)),
        overheadP50Ms: round(overheadP50),
        overheadP99Ms: round(p(routedAll, 99) - p(directAll, 99)),
        overheadP50RoundsMinMs: round(Math.min(...roundOverheads)),
        overheadP50RoundsMaxMs: round(Math.max(...roundOverheads)),
        goalMet: overheadP50 <= GOAL_MS,
        directCpuMsPerRequest: round(directAll.cpuMs / samples),
        routeCpuMsPerRequest: round(routedAll.cpuMs / samples),
        overheadCpuMsPerRequest: round((routedAll.cpuMs - directAll.cpuMs) / samples),
        directRequestsPerSecond: round(directLoad.requestsPerSecond),
        routeRequestsPerSecond: round(routedLoad.requestsPerSecond),
        routeThroughputRatio: round(routedLoad.requestsPerSecond / directLoad.requestsPerSecond),
        errors: directLoad.errors + directLoad.non2xx + routedLoad.errors + routedLoad.non2xx,
      };
    } finally {
      await service.close();
      await model.close();
    }
  },
});
