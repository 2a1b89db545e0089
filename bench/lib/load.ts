/**
 * @module bench/lib/load
 * HTTP load from a second process: autocannon runs as a child process, so the
 * load generator never competes with the server for its event loop.
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
  durationSeconds?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Requests per connection before autocannon reconnects; unset keeps connections alive. */
  pipelining?: number;
  /** Request i goes to `paths[i % paths.length]` (path and query), instead of the URL's own path. */
  paths?: string[];
  /** Request i also carries `headerSets[i % headerSets.length]` (e.g. one session cookie of many). */
  headerSets?: Record<string, string>[];
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
  const rotating = options.paths !== undefined || options.headerSets !== undefined;
  const report = JSON.parse(lastLine(await (rotating ? rotatingLoad(options) : cliLoad(options))));
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

const lastLine = (output: string) => output.trim().split('\n').pop()!;

/** autocannon's command line: one fixed request. */
function cliLoad(options: LoadOptions): Promise<string> {
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
  return runChild(args);
}

/**
 * autocannon's programmatic API in a child process (its command line cannot vary requests): the
 * options, with perhaps 100,000 cookies, travel in a file.
 */
async function rotatingLoad(options: LoadOptions): Promise<string> {
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
    return await runChild([fileURLToPath(new URL('./load-rotating.mjs', import.meta.url)), file]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function runChild(args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) => {
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
}
