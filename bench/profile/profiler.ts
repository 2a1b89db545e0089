/**
 * What the profiling scripts share: the V8 CPU profiler around the measured load
 * only (`PROFILE=0` turns it off, `INTERVAL` sets its sampling in µs), and the wall
 * time each SQLite statement spends in better-sqlite3 (`SQL_TIMES=1`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';

/**
 * Runs `measure` with the CPU profiler on (unless `PROFILE=0`) and writes
 * `<out>.cpuprofile`; returns what `measure` returned.
 */
export async function profiled<T>(out: string, measure: () => Promise<T>): Promise<T> {
  if (process.env.PROFILE === '0') return measure();
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.INTERVAL ?? 250) });
    await session.post('Profiler.start');
    const result = await measure();
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(`${out}.cpuprofile`, JSON.stringify(profile));
    return result;
  } finally {
    session.disconnect();
  }
}

/** Wall time and calls of each SQLite statement, by `shape(source)`, while `on`. */
export class SqliteStatementTimes {
  readonly times = new Map<string, { calls: number; micros: number }>();
  on = false;

  /** Wraps better-sqlite3's statement methods when `SQL_TIMES=1`; does nothing otherwise. */
  constructor(shape: (source: string) => string = (source) => source) {
    if (process.env.SQL_TIMES !== '1') return;
    const SQLite = createRequire(import.meta.url)('better-sqlite3');
    const probe = new SQLite(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('select 1'));
    probe.close();
    const times = this;
    for (const method of ['all', 'run', 'get', 'iterate']) {
      const original = proto[method];
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        if (!times.on) return original.apply(this, args);
        const start = process.hrtime.bigint();
        try {
          return original.apply(this, args);
        } finally {
          const key = shape(this.source);
          const entry = times.times.get(key) ?? { calls: 0, micros: 0 };
          entry.calls += 1;
          entry.micros += Number(process.hrtime.bigint() - start) / 1000;
          times.times.set(key, entry);
        }
      };
    }
  }

  /** One line per statement, slowest first: µs and calls per `unit` (e.g. per request). */
  report(count: number, unit: string): string[] {
    return [...this.times]
      .sort((a, b) => b[1].micros - a[1].micros)
      .map(
        ([sql, t]) =>
          `${(t.micros / count).toFixed(1).padStart(6)} µs/${unit} ${(t.calls / count).toFixed(3)} calls/${unit}  ${sql.slice(0, 140)}`,
      );
  }
}
