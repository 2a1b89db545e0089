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
  p50Ms: number;
  p99Ms: number;
}

/** Runs the load in a child process and waits for it to finish. */
export async function runBodiesLoad(load: BodiesLoad): Promise<BodiesLoadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-vc-load-'));
  const file = join(folder, 'load.json');
  writeFileSync(file, JSON.stringify(load));
  try {
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
    return JSON.parse(output.trim().split('\n').pop()!) as BodiesLoadResult;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

type Autocannon = (options: Record<string, unknown>) => Promise<{
  requests: { total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}>;

async function child(file: string) {
  // autocannon ships no types; only its documented options and result fields are used.
  const { default: autocannon } = (await import('autocannon' as string)) as { default: Autocannon };
  const load = JSON.parse(readFileSync(file, 'utf8')) as BodiesLoad;
  const amount = load.count ?? load.bodies.length;
  let next = 0;
  let unexpected = 0;
  const started = performance.now();
  const result = await autocannon({
    url: load.url,
    connections: load.connections ?? 16,
    amount,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...load.headers },
    requests: [
      {
        // One body: built once by autocannon. Several: handed out once each across all connections
        // (each connection has its own request list, so a plain list would be sent once per connection).
        ...(load.bodies.length === 1
          ? { body: load.bodies[0] }
          : {
              setupRequest: (request: Record<string, unknown>) => ({
                ...request,
                body: load.bodies[next++ % load.bodies.length],
              }),
            }),
        ...(load.expect
          ? {
              onResponse: (status: number, body: string) => {
                if (status < 300 && !body.includes(load.expect!)) unexpected++;
              },
            }
          : {}),
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  const requests = result.requests.total;
  const report: BodiesLoadResult = {
    requests,
    answered: requests - result.non2xx - unexpected,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    unexpected,
    requestsPerSecond: requests / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await child(process.argv[2]!);
