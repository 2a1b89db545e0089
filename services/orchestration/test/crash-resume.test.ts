/**
 * A run survives its process being killed: the service runs as a real child
 * process, is SIGKILLed while a step blocks, and a new process finishes the run
 * without redoing the steps that had finished.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@xv/platform';
import { describeEachDatabase, freePort, tempDir } from '@xv/platform/testing';
import { afterAll, expect, it } from 'vitest';
import { jsonInit, startUpstream, workflowFolder } from './helpers.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

async function startProcess(env: Record<string, string>, port: number) {
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

/** A fresh PostgreSQL database for the child process (its schema name is fixed), dropped afterwards. */
async function freshPostgresDatabase(url: string): Promise<string> {
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

describeEachDatabase('crash and resume', (target) => {
  it('finishes a run killed mid-step without redoing its finished steps', { timeout: 120_000 }, async () => {
    const upstream = await startUpstream();
    const folder = workflowFolder([
      {
        name: 'crash-test',
        description: 'Three calls; the second blocks until the test releases it.',
        input: { properties: { tag: { type: 'string' } }, required: ['tag'] },
        steps: ['first', 'second', 'third'].map((id) => ({
          id,
          type: 'connector',
          connector: 'http',
          with: { url: `${upstream.url}/${id}` },
          timeoutMs: 120_000,
        })),
      },
    ]);
    const port = await freePort();
    const env: Record<string, string> = {
      XV_ORCH_PORT: String(port),
      XV_DATA_DIR: tempDir(),
      XV_WORKFLOWS_DIR: folder,
      XV_WF_HTTP_ALLOWED_HOSTS: upstream.host,
      XV_WF_LEASE_SECONDS: '1',
      XV_LOG_LEVEL: 'error',
    };
    if (target.dialect === 'postgres') {
      env.XV_ORCH_DATABASE_URL = await freshPostgresDatabase(process.env.XV_TEST_DATABASE_URL!);
    }
    const request = jsonInit({ workflow: 'crash-test', input: { tag: 'x' }, idemKey: 'crash-1' });

    upstream.block('/second');
    const first = await startProcess(env, port);
    const cutShort = fetch(`http://127.0.0.1:${port}/api/wf`, request).catch((error: unknown) => error);
    while (upstream.hits('/second') === 0) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await cutShort).toBeInstanceOf(Error);
    upstream.release('/second');

    const second = await startProcess(env, port);
    // The same idemKey joins the resumed run instead of starting another.
    const response = await fetch(`http://127.0.0.1:${port}/api/wf`, request);
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.status).toBe('done');
    expect(body.steps.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['first', 'ok'],
      ['second', 'ok'],
      ['third', 'ok'],
    ]);
    expect(upstream.hits('/first')).toBe(1);
    // The step in flight at the kill runs again (at least once); the finished one never does.
    expect(upstream.hits('/second')).toBe(2);
    expect(upstream.hits('/third')).toBe(1);

    const record = await (await fetch(`http://127.0.0.1:${port}/api/wf?id=${body.runId}`)).json();
    expect(record.run.status).toBe('done');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
