/**
 * @module bench/lib/credentials-load
 * POST load where every request may carry its own body (key-binding presentations
 * must not be replayed), from a child process so its CPU is never the server's.
 * The parent writes the bodies to a file; the child (this same module, run as a
 * script) drives autocannon through them, one request per body, and prints its
 * JSON result.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface BodiesLoad {
  url: string;
  /** One request per body, in order; a single body is repeated `count` times. */
  bodies: string[];
  count?: number;
  connections?: number;
  headers?: Record<string, string>;
  /** Text every answer must contain (e.g. `"valid":true`); answers without it are counted as `unexpected`. */
  expect?: string;
}

export interface BodiesLoadResult {
  requests: number;
  /** Answered with 2xx. */
  answered: number;
  errors: number;
  non2xx: number;
  /** 2xx answers without the expected text. */
  unexpected: number;
  requestsPerSecond: number;
  /** CPU seconds of this process (every thread) from the child's start to its exit: the server's, in a bench. */
  cpuSeconds: number;
}

/**
 * Runs the load in a child process and waits for it to finish; the bodies are
 * written out before the CPU count starts.
 */
export async function runBodiesLoad(load: BodiesLoad): Promise<BodiesLoadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-vc-load-'));
  const file = join(folder, 'load.json');
  writeFileSync(file, JSON.stringify(load));
  try {
    const cpuBefore = process.cpuUsage();
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
      });
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.once('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`credential load failed: ${stderr}`)),
      );
    });
    const cpu = process.cpuUsage(cpuBefore);
    const report = JSON.parse(output.trim().split('\n').pop()!) as Omit<BodiesLoadResult, 'cpuSeconds'>;
    return { ...report, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

type Autocannon = (options: Record<string, unknown>) => Promise<{
  requests: { total: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}>;

async function child(file: string) {
  // autocannon ships no types; only its documented options and result fields are used.
  const { default: autocannon } = (await import('autocannon' as string)) as { default: Autocannon };
  const load = JSON.parse(readFileSync(file, 'utf8')) as BodiesLoad;
  const connections = load.connections ?? 16;
  let unexpected = 0;
  const onResponse = (status: number, body: string) => {
    if (status < 300 && !body.includes(load.expect!)) unexpected++;
  };
  const options = {
    url: load.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...load.headers },
  };
  // Every request is built once, before the clock starts. One body: one run over every connection.
  // Several: one single-connection run per share of them, since autocannon sends a run's whole
  // request list on each of its connections, and each body must go out exactly once.
  const runs =
    load.bodies.length === 1
      ? [{ connections, amount: load.count ?? 1, bodies: load.bodies }]
      : Array.from({ length: connections }, (_, i) => {
          const bodies = load.bodies.filter((_, j) => j % connections === i);
          return { connections: 1, amount: bodies.length, bodies };
        }).filter((run) => run.amount > 0);
  const started = performance.now();
  const results = await Promise.all(
    runs.map((run) =>
      autocannon({
        ...options,
        connections: run.connections,
        amount: run.amount,
        requests: run.bodies.map((body) => ({ body, ...(load.expect ? { onResponse } : {}) })),
      }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const sum = (of: (result: (typeof results)[number]) => number) =>
    results.reduce((total, result) => total + of(result), 0);
  const requests = sum((r) => r.requests.total);
  const non2xx = sum((r) => r.non2xx);
  const report: Omit<BodiesLoadResult, 'cpuSeconds'> = {
    requests,
    answered: requests - non2xx - unexpected,
    errors: sum((r) => r.errors + r.timeouts),
    non2xx,
    unexpected,
    requestsPerSecond: requests / seconds,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await child(process.argv[2]!);
