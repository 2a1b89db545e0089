/**
 * `npm run bench`: runs every benchmark in `bench/<name>.bench.ts`, each in its own
 * child process (one benchmark's heap, workers or leftover servers cannot skew the
 * next), one after the other, and rewrites the generated tables of
 * `docs/benchmarks.md` from that one run.
 *
 *   npm run bench                          every benchmark, then rewrite the document
 *   npm run bench -- <name> [<name>…]      only these; `--write` rewrites their sections
 *   npm run bench -- --list                the benchmarks and what they measure
 *
 * Each benchmark prints its figures, each next to its goal, then one JSON line. A
 * benchmark that fails (or outlives `XV_BENCH_TIMEOUT_MINUTES`, default 30) is
 * recorded as failed and the run goes on. The exit code is 0 only when every
 * benchmark ran and met every goal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Benchmark, describeBound, type Figures, meets } from './lib/harness.js';
import { type BenchResult, updateDocument } from './lib/report.js';
import { currentRunContext, DOCUMENT } from './lib/report-context.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const names = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();
const load = async (name: string) =>
  (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)).default as Benchmark;
const TIMEOUT_MS = Number(process.env.XV_BENCH_TIMEOUT_MINUTES ?? 30) * 60_000;

/** What a child process hands back: the benchmark's own description of itself and its figures. */
type ChildResult = Pick<BenchResult, 'name' | 'description' | 'goals' | 'baselines' | 'figures' | 'error'>;

function printFigures(bench: Benchmark, figures: Figures) {
  const width = Math.max(0, ...Object.keys(figures).map((k) => k.length));
  for (const [key, value] of Object.entries(figures)) {
    const judged = (bench.goals ?? [])
      .filter((goal) => goal.figure === key)
      .map(
        (goal) => `goal ${describeBound(goal)} (${goal.says}): ${meets(goal, figures) ? 'met' : 'NOT met'}`,
      );
    const baseline = bench.baselines?.includes(key) ? '  (baseline)' : '';
    process.stdout.write(
      `  ${key.padEnd(width)}  ${String(value).padEnd(10)}${judged.length ? `  ${judged.join('; ')}` : baseline}\n`,
    );
  }
}

/** The child's side: run one benchmark in this process and write what it produced to `resultFile`. */
async function runAlone(name: string, resultFile: string): Promise<never> {
  const bench = await load(name);
  const result: ChildResult = {
    name: bench.name,
    description: bench.description,
    goals: bench.goals ?? [],
    baselines: bench.baselines ?? [],
    figures: {},
  };
  process.stdout.write(`${bench.name}: ${bench.description}\n`);
  try {
    result.figures = await bench.run();
    printFigures(bench, result.figures);
    process.stdout.write(`${JSON.stringify({ bench: bench.name, ...result.figures })}\n`);
  } catch (error) {
    result.error = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  writeFileSync(resultFile, JSON.stringify(result));
  process.exit(result.error === undefined ? 0 : 1);
}

let running: ChildProcess | undefined;
/** Ends the running child and everything it started (servers, load generators): it leads its own group. */
function stopRunning() {
  if (running?.pid && running.exitCode === null) {
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** The parent's side: one benchmark in a child process, its result or the reason it has none. */
async function runInChild(name: string, folder: string): Promise<ChildResult> {
  const resultFile = join(folder, `${name}.json`);
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--alone', name, resultFile],
    { cwd: root, stdio: ['ignore', 'inherit', 'pipe'], detached: true },
  );
  running = child;
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopRunning();
  }, TIMEOUT_MS);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  running = undefined;
  stopRunning();
  try {
    return JSON.parse(readFileSync(resultFile, 'utf8')) as ChildResult;
  } catch {
    const firstError = stderr.split('\n').find((line) => /error/i.test(line));
    const error = timedOut
      ? `timed out after ${TIMEOUT_MS / 60_000} minutes`
      : (firstError?.trim() ?? `exited with code ${code}`);
    return { name, description: '', goals: [], baselines: [], figures: {}, error };
  }
}

async function main(args: string[]): Promise<number> {
  if (args[0] === '--alone') return runAlone(args[1]!, args[2]!);
  if (args.includes('--list')) {
    process.stdout.write('npm run bench [-- <name>… [--write]]\n\n');
    for (const name of names)
      process.stdout.write(`  ${name.padEnd(26)} ${(await load(name)).description}\n`);
    return 0;
  }
  const wanted = args.filter((arg) => !arg.startsWith('--'));
  const unknown = wanted.filter((name) => !names.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`bench: no benchmark named ${unknown.join(', ')}; \`npm run bench -- --list\`\n`);
    return 2;
  }
  const write = wanted.length === 0 || args.includes('--write');
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-results-'));
  const results: BenchResult[] = [];
  const started = Date.now();
  for (const name of wanted.length > 0 ? wanted : names) {
    const context = currentRunContext(root);
    const loadAverage = loadavg()[0]!;
    const benchStarted = Date.now();
    const result = await runInChild(name, folder);
    const seconds = (Date.now() - benchStarted) / 1000;
    results.push({ ...result, seconds, loadAverage, context });
    const unmet = result.goals.filter((goal) => !meets(goal, result.figures)).length;
    const outcome = result.error !== undefined ? `FAILED: ${result.error}` : `${unmet} goal(s) not met`;
    process.stdout.write(
      `-- ${name}: ${Math.round(seconds)} s, load average ${loadAverage.toFixed(2)} at start, ${outcome}\n\n`,
    );
  }
  rmSync(folder, { recursive: true, force: true });

  process.stdout.write(`Goals (${Math.round((Date.now() - started) / 1000)} s in all):\n`);
  if (results.every((result) => result.goals.length === 0 && result.error === undefined))
    process.stdout.write('  (none declared)\n');
  let allGood = true;
  for (const result of results) {
    if (result.error !== undefined) {
      allGood = false;
      process.stdout.write(`  ${result.name}: FAILED: ${result.error}\n`);
    }
    for (const goal of result.goals) {
      const met = meets(goal, result.figures);
      if (!met) allGood = false;
      const value = result.figures[goal.figure] ?? 'no figure';
      process.stdout.write(
        `  ${result.name} ${goal.figure} ${value} ${describeBound(goal)} (${goal.says}): ${met ? 'met' : 'NOT met'}\n`,
      );
    }
  }
  if (write) {
    const path = join(root, DOCUMENT);
    writeFileSync(path, updateDocument(readFileSync(path, 'utf8'), results));
    process.stdout.write(`Rewrote the sections of ${results.map((r) => r.name).join(', ')} in ${DOCUMENT}\n`);
  }
  return allGood ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopRunning();
    process.exit(130);
  });
process.exit(await main(process.argv.slice(2)));
