/**
 * @module bench/lib/report-context
 * The commit and machine a benchmark run happened on, for the generated tables.
 */
import { execFileSync } from 'node:child_process';
import { arch, cpus, release, totalmem, type } from 'node:os';
import type { RunContext } from './report.js';

/** The generated document itself does not make a run "uncommitted": it is the run's output. */
export const DOCUMENT = 'docs/benchmarks.md';

function git(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function currentRunContext(root: string, now = new Date()): RunContext {
  const changed = git(['status', '--porcelain'], root)
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.endsWith(DOCUMENT));
  return {
    commit: git(['rev-parse', '--short', 'HEAD'], root) || 'unknown',
    dirty: changed.length > 0,
    date: now.toISOString(),
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model.replace(/\s+/g, ' ').trim() ?? 'unknown CPU',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      os: `${type()} ${release()} ${arch()}`,
    },
  };
}
