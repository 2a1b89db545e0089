/**
 * Router overhead: the same one-line answer from the scripted model server, asked
 * directly (OpenAI chat-completions request) and through `POST /api/route`
 * (validation, rate limit, tier lookup, cooldown, the AI SDK provider, hops).
 * Latency is sampled sequentially on one keep-alive connection, alternating the
 * two, so both see the same machine; throughput comes from autocannon in a
 * second process.
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

const ROUNDS = 10;
const PER_ROUND = 200;

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

async function timed(send: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await send();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`unexpected status ${response.status}`);
  return performance.now() - started;
}

export default defineBenchmark({
  name: 'orchestration-router',
  description:
    'POST /api/route vs the model server called directly: p50 overhead (goal ≤ 1 ms) and requests/s',
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
      for (let i = 0; i < 300; i += 1) {
        await timed(send(direct));
        await timed(send(routed));
      }
      const directMs: number[] = [];
      const routedMs: number[] = [];
      // CPU time of this process (client, service and model server alike): insensitive to other load.
      let directCpu = 0;
      let routedCpu = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        let cpu = process.cpuUsage();
        for (let i = 0; i < PER_ROUND; i += 1) directMs.push(await timed(send(direct)));
        directCpu += cpuMs(process.cpuUsage(cpu));
        cpu = process.cpuUsage();
        for (let i = 0; i < PER_ROUND; i += 1) routedMs.push(await timed(send(routed)));
        routedCpu += cpuMs(process.cpuUsage(cpu));
      }
      const samples = ROUNDS * PER_ROUND;
      const load = (target: Target) =>
        runLoad({ ...target, method: 'POST', connections: 16, durationSeconds: 5 });
      const directLoad = await load(direct);
      const routedLoad = await load(routed);
      const p50Direct = percentile(directMs, 50);
      const p50Routed = percentile(routedMs, 50);
      return {
        directP50Ms: round(p50Direct),
        routeP50Ms: round(p50Routed),
        overheadP50Ms: round(p50Routed - p50Direct),
        overheadP99Ms: round(percentile(routedMs, 99) - percentile(directMs, 99)),
        goalMet: p50Routed - p50Direct <= 1,
        directCpuMsPerRequest: round(directCpu / samples),
        routeCpuMsPerRequest: round(routedCpu / samples),
        overheadCpuMsPerRequest: round((routedCpu - directCpu) / samples),
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
