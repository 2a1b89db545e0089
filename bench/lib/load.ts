/**
 * @module bench/lib/load
 * HTTP load from a second process: autocannon runs as a child process, so the
 * load generator never competes with the server for its event loop.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSeconds?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests per connection before autocannon reconnects; unset keeps connections alive. */
  pipelining?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const cli = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [
    cli,
    '--json',
    '--connections',
    String(options.connections ?? 64),
    '--duration',
    String(options.durationSeconds ?? 10),
    '--pipelining',
    String(options.pipelining ?? 1),
    '--method',
    options.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push('--headers', `${name}=${value}`);
  if (options.body !== undefined) args.push('--body', options.body);
  args.push(options.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`autocannon failed: ${stderr}`)),
    );
  });
  const report = JSON.parse(output.trim().split('\n').pop()!);
  return {
    requestsPerSecond: report.requests.average,
    p50Ms: report.latency.p50,
    p90Ms: report.latency.p90,
    p99Ms: report.latency.p99,
    maxMs: report.latency.max,
    requests: report.requests.total,
    errors: report.errors,
    non2xx: report.non2xx,
  };
}
