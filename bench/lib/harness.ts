/**
 * @module bench/lib/harness
 * What a benchmark is: a name, a sentence, the goals it is held to, and a `run`
 * that returns its figures, naming which of them are the same-run baselines. `npm run bench -- <name>` prints the figures as a
 * table, each goal next to the figure it judges, and then one JSON line
 * (`{"bench":"<name>",…}`) for machines. Figures that compare against a baseline
 * measured in the same run are named `…Ratio`.
 */

export type Figures = Record<string, number | string | boolean>;

/** A bound one figure must meet: `atLeast` for rates and ratios, `atMost` for costs and latencies. */
export interface Goal {
  /** The key in the benchmark's figures that this goal judges. */
  figure: string;
  atLeast?: number;
  atMost?: number;
  /** What the goal means, in a few words: "POST /api/verify vs /healthz". */
  says: string;
}

export interface Benchmark {
  name: string;
  description: string;
  goals?: Goal[];
  /** The figures that are the same-run baselines the others are compared with (e.g. `healthzRequestsPerSecond`). */
  baselines?: string[];
  run(): Promise<Figures>;
}

export function defineBenchmark(benchmark: Benchmark): Benchmark {
  return benchmark;
}

/** Whether a figure meets its goal; `undefined` when the run did not produce the figure. */
export function meets(goal: Goal, figures: Figures): boolean | undefined {
  const value = figures[goal.figure];
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return (
    (goal.atLeast === undefined || value >= goal.atLeast) &&
    (goal.atMost === undefined || value <= goal.atMost)
  );
}

/** "≥ 0.2" or "≤ 0.67": the bound as a person reads it. */
export function describeBound(goal: Goal): string {
  const parts: string[] = [];
  if (goal.atLeast !== undefined) parts.push(`≥ ${goal.atLeast}`);
  if (goal.atMost !== undefined) parts.push(`≤ ${goal.atMost}`);
  return parts.join(' and ');
}

/** Rounds to a few significant digits for printing. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const scale = 10 ** Math.max(0, digits - Math.ceil(Math.log10(Math.abs(value))));
  return Math.round(value * scale) / scale;
}

/** Percentile of a list of samples (nearest rank). */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** CPU seconds this process (every thread: event loop, workers, libuv pool) spent while `work` ran. */
export async function cpuSecondsOf(work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1e6;
}
