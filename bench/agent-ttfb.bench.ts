/**
 * Time to first byte the agent adds to a streamed answer: the same scripted model
 * is asked directly (the baseline) and through `POST /api/chat`, one request at a
 * time, so the difference is what the agent's HTTP stack, session lease, history
 * read and AI SDK add before the first word reaches the client. Goal: at most
 * 5 ms added at p50.
 *
 * The client runs in a second process: in the server's own process it would only
 * see the first byte once the server yields, i.e. after the whole turn. Requests
 * go in rounds of blocks (model, returning sessions, new sessions), and the
 * server process's CPU time is taken per block; on a busy machine wall-clock time
 * stretches the CPU-heavier path more, so CPU time per request is reported too.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { agentOverScriptedModel } from './lib/agent.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';

const ROUNDS = 4;
const PER_BLOCK = 100;
const WARM_UP = 60;
const RETURNING_SESSIONS = 50;

type Kind = 'model' | 'returning' | 'fresh';
interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The client (plain JavaScript, run with `node -e`): one keep-alive connection per
 * target, milliseconds from sending to the first body byte. It prints `block <kind>`
 * before and `done` after each block, then the samples as JSON.
 */
const CLIENT = `
const http = require('node:http');
const { targets, rounds, perBlock, warmUp, sessions } = JSON.parse(process.argv[1]);
const agents = {};
function ttfb(kind, i) {
  const t = targets[kind === 'model' ? 'model' : 'agent'];
  const session = kind === 'returning' ? 'warm-' + (i % sessions) : kind === 'fresh' ? 'new-' + i : '';
  const url = session ? t.url + '?session=' + session : t.url;
  agents[kind] ??= new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(url, { method: 'POST', headers: t.headers, agent: agents[kind] }, (res) => {
      let first;
      res.on('data', () => { first ??= performance.now() - started; });
      res.once('end', () => (res.statusCode === 200 && first !== undefined ? resolve(first) : reject(new Error(url + ' answered ' + res.statusCode))));
    });
    req.once('error', reject);
    req.end(t.body);
  });
}
(async () => {
  for (let i = 0; i < warmUp; i++) { await ttfb('model', i); await ttfb('returning', i); await ttfb('fresh', 1e6 + i); }
  const samples = { model: [], returning: [], fresh: [] };
  let fresh = 0;
  for (let r = 0; r < rounds; r++) {
    for (const kind of ['model', 'returning', 'fresh']) {
      console.log('block ' + kind);
      for (let i = 0; i < perBlock; i++) samples[kind].push(await ttfb(kind, kind === 'fresh' ? fresh++ : i));
      console.log('done');
    }
  }
  console.log(JSON.stringify(samples));
})().catch((error) => { console.error(String(error)); process.exit(1); });
`;

function runClient(targets: Record<'model' | 'agent', Target>) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      CLIENT,
      JSON.stringify({
        targets,
        rounds: ROUNDS,
        perBlock: PER_BLOCK,
        warmUp: WARM_UP,
        sessions: RETURNING_SESSIONS,
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const cpuMs: Record<Kind, number> = { model: 0, returning: 0, fresh: 0 };
  let block: { kind: Kind; cpu: NodeJS.CpuUsage } | undefined;
  let samples: Record<Kind, number[]> | undefined;
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('block ')) block = { kind: line.slice(6) as Kind, cpu: process.cpuUsage() };
    else if (line === 'done' && block) {
      const used = process.cpuUsage(block.cpu);
      cpuMs[block.kind] += (used.user + used.system) / 1000;
    } else if (line.startsWith('{')) samples = JSON.parse(line);
  });
  return new Promise<{ samples: Record<Kind, number[]>; cpuMs: Record<Kind, number> }>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 && samples
        ? resolve({ samples, cpuMs })
        : reject(new Error(`the TTFB client failed (${code})`)),
    ),
  );
}

export default defineBenchmark({
  name: 'agent-ttfb',
  description:
    'time to first byte of POST /api/chat over the scripted model server’s own (goal: ≤ 5 ms added at p50)',
  async run() {
    const { agent, direct, close } = await agentOverScriptedModel(
      'Hello from the scripted model, streamed word by word.',
    );
    try {
      const { samples, cpuMs } = await runClient({
        model: direct,
        agent: {
          url: `${agent.url}/api/chat`,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'hi' }),
        },
      });
      const p = (kind: Kind, q: number) => percentile(samples[kind], q);
      const perRequest = (kind: Kind) => cpuMs[kind] / samples[kind].length;
      return {
        modelTtfbP50Ms: round(p('model', 50)),
        modelTtfbP99Ms: round(p('model', 99)),
        agentTtfbP50Ms: round(p('returning', 50)),
        agentTtfbP99Ms: round(p('returning', 99)),
        agentAddedP50Ms: round(p('returning', 50) - p('model', 50)),
        newSessionTtfbP50Ms: round(p('fresh', 50)),
        newSessionAddedP50Ms: round(p('fresh', 50) - p('model', 50)),
        agentTtfbRatio: round(p('returning', 50) / p('model', 50)),
        modelServerCpuPerRequestMs: round(perRequest('model')),
        agentCpuPerTurnMs: round(perRequest('returning') - perRequest('model')),
        newSessionCpuPerTurnMs: round(perRequest('fresh') - perRequest('model')),
        meetsGoal: p('returning', 50) - p('model', 50) <= 5,
        samplesEach: samples.model.length,
      };
    } finally {
      await close();
    }
  },
});
