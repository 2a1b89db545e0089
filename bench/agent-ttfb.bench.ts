/**
 * Time to first byte the agent adds to a streamed answer: the same scripted model
 * is asked directly (the baseline) and through `POST /api/chat`, one request at a
 * time, interleaved, so the difference is what the agent's HTTP stack, session
 * lease, history read and AI SDK add before the first word reaches the client.
 * Goal: at most 5 ms added at p50. On a busy machine wall-clock time stretches
 * the CPU-heavier path more, so the CPU time of a whole request (this process:
 * client, agent and model server) is reported too; the agent's share is the
 * difference.
 */
import { request } from 'node:http';
import { agentService } from '@xv/agent';
// The model server alone: the testing entry point pulls in vitest.
import { answer, startModelServer } from '../packages/platform/src/testing/model-server.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';
import { serveForBench } from './lib/services.js';

const KEY = 'bench-model-key';
const SAMPLES = 400;
const WARM_UP = 50;
const RETURNING_SESSIONS = 50;

/** Milliseconds from sending a POST to the first byte of its body. */
function timeToFirstByte(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let first: number | undefined;
        res.on('data', () => {
          first ??= performance.now() - started;
        });
        res.once('end', () =>
          first === undefined || res.statusCode !== 200
            ? reject(new Error(`${url} answered ${res.statusCode}`))
            : resolve(first),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

const stats = (samples: number[]) => ({ p50: percentile(samples, 50), p99: percentile(samples, 99) });

/** Runs `call`, adding its milliseconds to first byte to `samples` and its CPU time (ms) to `cpu`. */
async function measured(call: () => Promise<number>, samples: number[], cpu: { ms: number }) {
  const before = process.cpuUsage();
  samples.push(await call());
  const used = process.cpuUsage(before);
  cpu.ms += (used.user + used.system) / 1000;
}

export default defineBenchmark({
  name: 'agent-ttfb',
  description:
    'time to first byte of POST /api/chat over the scripted model server’s own (goal: ≤ 5 ms added at p50)',
  async run() {
    const model = await startModelServer({
      apiKey: KEY,
      record: false,
      fallback: answer('Hello from the scripted model, streamed word by word.'),
    });
    const agent = await serveForBench(agentService, {
      MODEL_BASE_URL: model.baseUrl,
      MODEL_API_KEY: KEY,
      MODEL_NAME: 'scripted',
      XV_AGENT_CHAT_PER_MINUTE: '1000000',
    });
    try {
      const direct = () =>
        timeToFirstByte(
          `${model.baseUrl}/chat/completions`,
          JSON.stringify({ model: 'scripted', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
          { authorization: `Bearer ${KEY}` },
        );
      const viaAgent = (session: string) =>
        timeToFirstByte(`${agent.url}/api/chat?session=${session}`, JSON.stringify({ message: 'hi' }));

      for (let i = 0; i < WARM_UP; i++) {
        await direct();
        await viaAgent(`warm-${i % RETURNING_SESSIONS}`);
      }
      const baseline: number[] = [];
      const returning: number[] = [];
      const fresh: number[] = [];
      const cpu = { direct: { ms: 0 }, returning: { ms: 0 }, fresh: { ms: 0 } };
      for (let i = 0; i < SAMPLES; i++) {
        await measured(direct, baseline, cpu.direct);
        await measured(() => viaAgent(`warm-${i % RETURNING_SESSIONS}`), returning, cpu.returning);
        await measured(() => viaAgent(`new-${i}`), fresh, cpu.fresh);
      }
      const [b, r, f] = [stats(baseline), stats(returning), stats(fresh)];
      return {
        modelTtfbP50Ms: round(b.p50),
        modelTtfbP99Ms: round(b.p99),
        agentTtfbP50Ms: round(r.p50),
        agentTtfbP99Ms: round(r.p99),
        agentAddedP50Ms: round(r.p50 - b.p50),
        newSessionTtfbP50Ms: round(f.p50),
        newSessionAddedP50Ms: round(f.p50 - b.p50),
        agentTtfbRatio: round(r.p50 / b.p50),
        modelCpuPerRequestMs: round(cpu.direct.ms / SAMPLES),
        agentCpuPerTurnMs: round((cpu.returning.ms - cpu.direct.ms) / SAMPLES),
        newSessionCpuPerTurnMs: round((cpu.fresh.ms - cpu.direct.ms) / SAMPLES),
        meetsGoal: r.p50 - b.p50 <= 5,
        samples: SAMPLES,
      };
    } finally {
      await agent.close();
      await model.close();
    }
  },
});
