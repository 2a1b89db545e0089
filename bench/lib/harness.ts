/**
 * @module bench/lib/harness
 * What a benchmark is: a name, a sentence, and a `run` that returns its figures.
 * `npm run bench -- <name>` prints the figures as a table and then one JSON line
 * (`{"bench":"<name>",…}`) for machines. Figures that compare against a baseline
 * measured in the same run are named `…Ratio`.
 */

export type Figures = Record<string, number | string | boolean>;

export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<Figures>;
}

export function defineBenchmark(benchmark: Benchmark): Benchmark {
  return benchmark;
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
