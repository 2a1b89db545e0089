/**
 * @module bench/lib/verify-load
 * HTTP load of many distinct request bodies, round robin, from a child process, with
 * every answer checked: `runBodiesLoad` writes the bodies to a file and starts this
 * module as a child (autocannon's CLI sends one body only), which sends body 0, 1, 2,
 * … across all connections (so no two connections send the same body at the same
 * moment) and counts the 2xx answers whose JSON does not say `valid: true`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadResult } from './load.js';

export interface BodiesLoadOptions {
  url: string;
  bodies: string[];
  connections: number;
  durationSeconds: number;
}

/** The load's figures, and how many 2xx answers did not say `valid: true`. */
export interface BodiesLoadResult extends LoadResult {
  notValid: number;
}

export async function runBodiesLoad(options: BodiesLoadOptions): Promise<BodiesLoadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-bodies-'));
  const file = join(folder, 'load.json');
  writeFileSync(file, JSON.stringify(options));
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
        code === 0 ? resolve(stdout) : reject(new Error(`the load process failed: ${stderr}`)),
      );
    });
    return JSON.parse(output.trim().split('\n').pop()!) as BodiesLoadResult;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The part of autocannon's programmatic API the child uses (the package ships no types). */
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: {
    method: string;
    headers: Record<string, string>;
    setupRequest(request: Record<string, unknown>): Record<string, unknown>;
    onResponse(status: number, body: string): void;
  }[];
}) => Promise<{
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  errors: number;
  non2xx: number;
}>;

/** The child: runs autocannon in this process and prints one JSON line. */
async function main(file: string) {
  const autocannonModule: string = 'autocannon';
  const autocannon = ((await import(autocannonModule)) as { default: Autocannon }).default;
  const options = JSON.parse(readFileSync(file, 'utf8')) as BodiesLoadOptions;
  let next = 0;
  let notValid = 0;
  const report = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const body = options.bodies[next++ % options.bodies.length]!;
          return { ...request, body };
        },
        onResponse: (status, body) => {
          if (status < 200 || status > 299) return; // counted by autocannon as non2xx
          try {
            if ((JSON.parse(body) as { valid?: unknown }).valid !== true) notValid++;
          } catch {
            notValid++;
          }
        },
      },
    ],
  });
  const result: BodiesLoadResult = {
    requestsPerSecond: report.requests.average,
    p50Ms: report.latency.p50,
    p90Ms: report.latency.p90,
    p99Ms: report.latency.p99,
    maxMs: report.latency.max,
    requests: report.requests.total,
    errors: report.errors,
    non2xx: report.non2xx,
    notValid,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(process.argv[2]!);
