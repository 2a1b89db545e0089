/**
 * 1,000 sessions at once: every session sends one message at the same moment
 * (one connection each). Figures: how long the burst takes against the same
 * burst straight to the scripted model server, the latency of a whole turn, the
 * heap left per session once the burst is over (connections closed, garbage
 * collected), and the memory of one idle session object: the 1,000 sessions are
 * loaded into a fresh registry (each with its settings and latest messages, as
 * after a turn) and the heap growth is divided by 1,000.
 */
import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SessionRegistry, SessionStore } from '@xv/agent';
import { agentOverScriptedModel } from './lib/agent.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';

const SESSIONS = 1_000;

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

async function settledHeap(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Milliseconds for a whole POST (body read to the end), on its own connection. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      url,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        res.resume();
        res.once('end', () =>
          res.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function burst(send: (i: number) => Promise<number>) {
  const started = performance.now();
  const results = await Promise.allSettled(Array.from({ length: SESSIONS }, (_, i) => send(i)));
  const wallMs = performance.now() - started;
  const latencies = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r) => r.status === 'rejected');
  return {
    wallMs,
    latencies,
    errors: SESSIONS - latencies.length,
    firstError: failure?.status === 'rejected' ? String(failure.reason) : 'none',
  };
}

export default defineBenchmark({
  name: 'agent-sessions',
  description:
    '1,000 sessions sending one message at once: burst time, turn latency, memory of an idle session',
  async run() {
    const { agent, direct: toModel, close } = await agentOverScriptedModel('Noted, thank you.');
    try {
      const direct = () => post(toModel.url, toModel.body, toModel.headers);
      const viaAgent = (i: number) =>
        post(
          `${agent.url}/api/chat?session=bench-${i}`,
          JSON.stringify({ message: `hello from session ${i}` }),
        );

      for (let i = 0; i < 50; i++) await post(`${agent.url}/api/chat?session=warm-${i}`, '{"message":"hi"}');
      const baseline = await burst(direct);

      const heapBefore = await settledHeap();
      const agentBurst = await burst(viaAgent);
      // Let kept-alive connections to the model close before looking at what is left.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const heapAfterBurst = await settledHeap();

      const registry = new SessionRegistry(new SessionStore(agent.context.database), {
        maxActors: SESSIONS * 2,
        idleMs: 3_600_000,
        windowSize: 20,
        leaseMs: 30_000,
        waitMs: 10_000,
      });
      const heapEmptyRegistry = await settledHeap();
      for (let i = 0; i < SESSIONS; i++) {
        const turn = await registry.get(`bench-${i}`).acquire();
        await turn.release();
      }
      const heapIdleSessions = await settledHeap();
      registry.close();

      return {
        sessions: SESSIONS,
        agentBurstMs: round(agentBurst.wallMs),
        agentTurnP50Ms: round(percentile(agentBurst.latencies, 50)),
        agentTurnP99Ms: round(percentile(agentBurst.latencies, 99)),
        agentErrors: agentBurst.errors,
        agentFirstError: agentBurst.firstError,
        modelBurstMs: round(baseline.wallMs),
        modelP50Ms: round(percentile(baseline.latencies, 50)),
        burstRatio: round(agentBurst.wallMs / baseline.wallMs),
        idleSessionKb: round((heapIdleSessions - heapEmptyRegistry) / SESSIONS / 1024),
        heapLeftPerTurnKb: round((heapAfterBurst - heapBefore) / SESSIONS / 1024),
      };
    } finally {
      await close();
    }
  },
});
