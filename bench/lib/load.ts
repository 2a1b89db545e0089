/**
 * @module bench/lib/load
 * The benchmarks' one HTTP load generator. autocannon runs as a child process, so
 * the load generator never competes with the server for its event loop: its
 * command line for one fixed request, or `load-child.mjs` (its programmatic API)
 * when requests differ (paths, header sets, bodies), must each go out once, or
 * have their answers checked.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

export interface LoadOptions {
  url: string;
  connections?: number;
  /** How long the load runs, unless `amount` or `once` bound it. */
  durationSeconds?: number;
  /** Stop after this many requests in all instead of after `durationSeconds`. */
  amount?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests per connection before autocannon reconnects; unset keeps connections alive. */
  pipelining?: number;
  /** Request i goes to `paths[i % paths.length]` (path and query), instead of the URL's own path. */
  paths?: string[];
  /** Request i also carries `headerSets[i % headerSets.length]` (e.g. one session cookie of many). */
  headerSets?: Record<string, string>[];
  /** Request i carries `bodies[i % bodies.length]`, round robin over all connections. */
  bodies?: string[];
  /**
   * Each of `bodies` goes out exactly once, then the load ends (e.g. key-binding
   * presentations, which must not be replayed).
   */
  once?: boolean;
  /** Text each 2xx answer must contain (e.g. `"valid":true`); those without it count as `unexpected`. */
  expect?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers received. */
  requests: number;
  errors: number;
  non2xx: number;
  /** 2xx answers without the `expect` text. */
  unexpected: number;
  /** 2xx answers with the `expect` text (if any): `requests - non2xx - unexpected`. */
  answered: number;
  /** CPU seconds of this process (every thread) from the child's start to its exit: the server's, in a bench. */
  cpuSeconds: number;
}

/** The fields read from what either child prints: autocannon's result (`load-child.mjs` adds `unexpected`). */
interface ChildReport {
  requests: { total: number; average: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  errors: number;
  non2xx: number;
  unexpected?: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const fixed =
    options.paths === undefined &&
    options.headerSets === undefined &&
    options.bodies === undefined &&
    options.expect === undefined;
  if (options.once && options.bodies === undefined) throw new Error('runLoad: `once` sends `bodies`');
  if (options.once && (options.paths || options.headerSets || options.amount))
    throw new Error('runLoad: `once` takes bodies only, without paths, header sets or an amount');
  const { output, cpuSeconds } = await (fixed ? cliLoad(options) : childLoad(options));
  const report = JSON.parse(output.trim().split('\n').pop()!) as ChildReport;
  const requests = report.requests.total;
  const unexpected = report.unexpected ?? 0;
  return {
    requestsPerSecond: report.requests.average,
    p50Ms: report.latency.p50,
    p90Ms: report.latency.p90,
    p99Ms: report.latency.p99,
    maxMs: report.latency.max,
    requests,
    errors: report.errors,
    non2xx: report.non2xx,
    unexpected,
    answered: requests - report.non2xx - unexpected,
    cpuSeconds,
  };
}

/** autocannon's command line: one fixed request. */
function cliLoad(options: LoadOptions) {
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
  if (options.amount !== undefined) args.push('--amount', String(options.amount));
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push('--headers', `${name}=${value}`);
  if (options.body !== undefined) args.push('--body', options.body);
  args.push(options.url);
  return runChild(args);
}

/**
 * autocannon's programmatic API in a child process: the options, with perhaps
 * 100,000 cookies or thousands of bodies, travel in a file, written before the CPU
 * count starts.
 */
async function childLoad(options: LoadOptions) {
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-load-'));
  const file = join(folder, 'options.json');
  writeFileSync(
    file,
    JSON.stringify({
      connections: 64,
      durationSeconds: 10,
      method: 'GET',
      ...options,
      pipelining: undefined,
    }),
  );
  try {
    return await runChild([fileURLToPath(new URL('./load-child.mjs', import.meta.url)), file]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function runChild(args: string[]): Promise<{ output: string; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('exit', (code) => {
      const cpu = process.cpuUsage(cpuBefore);
      if (code === 0) resolve({ output: stdout, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
      else reject(new Error(`autocannon failed: ${stderr}`));
    });
  });
}
