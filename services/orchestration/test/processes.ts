/**
 * The service as a real child process, for tests that kill it: started on a
 * port, ready once `/readyz` answers; every child is SIGKILLed after the file.
 * And a fresh PostgreSQL database for such a child (its schema name is fixed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@xv/platform';
import { afterAll } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

export async function startProcess(env: Record<string, string>, port: number) {
  const child = spawn(
    process.execPath,
    ['--conditions=xv-source', '--import', 'tsx', 'services/orchestration/src/main.ts'],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  exited.then(() => children.delete(child));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited: ${stderr}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (ready?.ok) break;
    if (Date.now() > deadline) throw new Error(`the service did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited };
}

/** A fresh PostgreSQL database for a child process, dropped after the file; returns its URL. */
export async function freshPostgresDatabase(url: string): Promise<string> {
  const name = `xv_orch_crash_${randomBytes(4).toString('hex')}`;
  const admin = await openDatabase({ service: 'orchestration', url, schema: 'public', poolSize: 1 });
  await admin.pool!.query(`CREATE DATABASE ${name}`);
  afterAll(async () => {
    await admin.pool!.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  });
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.href;
}
