/**
 * A run survives its process being killed: the service runs as a real child
 * process, is SIGKILLed while a step blocks, and a new process finishes the run
 * without redoing the steps that had finished.
 */
import { describeEachDatabase, freePort, tempDir } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import { jsonInit, startUpstream, workflowFolder } from './helpers.js';
import { freshPostgresDatabase, startProcess } from './processes.js';

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
