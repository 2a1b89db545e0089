/**
 * @module e2e/support/journey-cli
 * The `xv` command as a person runs it, in its own process: `packages/cli/bin/xv.js`
 * (the compiled CLI) when the build is up to date, else the same `main.ts` from
 * the sources through tsx. Bounded in time; the output and exit code come back.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isBuildFresh } from './platform.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The CLI's build includes the services it opens directly (identity, knowledge).
const CLI_PROJECTS = ['packages/platform', 'packages/cli', 'services/identity', 'services/knowledge'];

export interface CliRun {
  code: number | null;
  output: string;
  entry: 'dist' | 'source';
}

export function xvCommand(): { args: string[]; entry: 'dist' | 'source' } {
  const compiled =
    existsSync(join(root, 'packages', 'cli', 'dist', 'main.js')) && CLI_PROJECTS.every(isBuildFresh);
  return compiled
    ? { args: [join(root, 'packages', 'cli', 'bin', 'xv.js')], entry: 'dist' }
    : {
        args: ['--conditions=xv-source', '--import', 'tsx', join(root, 'packages', 'cli', 'src', 'main.ts')],
        entry: 'source',
      };
}

/** Runs `xv <args>` with `env` added to this process's environment; kills it after `timeoutMs`. */
export function runXv(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  const command = xvCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...command.args, ...args], {
      cwd: root,
      // The build is known to be up to date: `xv` need not run `tsc -b` first.
      env: { ...process.env, XV_SKIP_BUILD: '1', XV_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, entry: command.entry });
    });
  });
}
