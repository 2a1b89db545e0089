/**
 * Group commit under a kill: many runs are in flight, their step records written
 * in shared batches, when the process is SIGKILLed. Whatever was acknowledged
 * must be in the database afterwards: every run answered 200 is done with all
 * its steps, and every step whose next step had started (the upstream saw it) is
 * recorded. A record acknowledged before its batch committed would be missing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '@xv/platform';
import { describeEachDatabase, freePort, tempDir } from '@xv/platform/testing';
import { afterAll, expect, it } from 'vitest';
import type { OrchestrationDatabase } from '../src/db.js';
import { jsonInit, workflowFolder } from './helpers.js';
import { freshPostgresDatabase, startProcess } from './processes.js';

const STEPS = ['first', 'second', 'third'] as const;
const CLIENTS = 32;
const ACKNOWLEDGED_BEFORE_KILL = 300;

/** An upstream that notes which run (its `tag`) reached which step. */
async function startTaggingUpstream() {
  const reached = new Map<string, Set<string>>(STEPS.map((step) => [`/${step}`, new Set<string>()]));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream');
    reached.get(url.pathname)?.add(url.searchParams.get('tag') ?? '');
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, reached: (step: string) => reached.get(`/${step}`)! };
}

describeEachDatabase('group commit under a kill', (target) => {
  it('loses no acknowledged run or step when the process dies mid-batch', { timeout: 120_000 }, async () => {
    const upstream = await startTaggingUpstream();
    const folder = workflowFolder([
      {
        name: 'tagged',
        description: 'Three calls, each naming its run.',
        input: { properties: { tag: { type: 'string' } }, required: ['tag'] },
        steps: STEPS.map((id) => ({
          id,
          type: 'connector',
          connector: 'http',
          with: { url: `http://${upstream.host}/${id}?tag={{input.tag}}` },
        })),
      },
    ]);
    const port = await freePort();
    const dataDir = tempDir();
    const env: Record<string, string> = {
      XV_ORCH_PORT: String(port),
      XV_DATA_DIR: dataDir,
      XV_WORKFLOWS_DIR: folder,
      XV_WF_HTTP_ALLOWED_HOSTS: upstream.host,
      XV_ORCH_WF_PER_MINUTE: '1000000000',
      XV_LOG_LEVEL: 'error',
    };
    if (target.dialect === 'postgres') {
      env.XV_ORCH_DATABASE_URL = await freshPostgresDatabase(process.env.XV_TEST_DATABASE_URL!);
    }

    const service = await startProcess(env, port);
    const acknowledged: string[] = [];
    let killed = false;
    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; !killed; i += 1) {
        const tag = `c${client}-${i}`;
        const init = jsonInit({ workflow: 'tagged', input: { tag } });
        const response = await fetch(`http://127.0.0.1:${port}/api/wf`, init).catch(() => undefined);
        const body = await response?.json().catch(() => undefined);
        if (!response || !body) return;
        expect(response.status).toBe(200);
        acknowledged.push(tag);
      }
    });
    while (acknowledged.length < ACKNOWLEDGED_BEFORE_KILL) await new Promise((r) => setTimeout(r, 5));
    service.child.kill('SIGKILL');
    killed = true;
    await service.exited;
    await Promise.all(clients);

    const opened = await openDatabase({ service: 'orchestration', dataDir, url: env.XV_ORCH_DATABASE_URL });
    const database = opened as OrchestrationDatabase;
    try {
      const runs = await database.kysely
        .selectFrom('wf_runs')
        .select(['run_id', 'input', 'status'])
        .execute();
      const steps = await database.kysely
        .selectFrom('wf_steps')
        .select(['run_id', 'step_id', 'status'])
        .execute();
      const runOfTag = new Map(runs.map((run) => [JSON.parse(run.input).tag as string, run]));
      const recorded = new Set(steps.filter((s) => s.status === 'ok').map((s) => `${s.run_id} ${s.step_id}`));
      const isRecorded = (tag: string, step: string) => recorded.has(`${runOfTag.get(tag)?.run_id} ${step}`);

      for (const tag of acknowledged) {
        expect(runOfTag.get(tag)?.status, tag).toBe('done');
        for (const step of STEPS) expect(isRecorded(tag, step), `${tag} ${step}`).toBe(true);
      }
      // A step started only after the one before it was acknowledged: that one must be on record.
      for (const [position, step] of STEPS.entries()) {
        if (position === 0) continue;
        for (const tag of upstream.reached(step)) {
          expect(isRecorded(tag, STEPS[position - 1]!), `${tag} ${STEPS[position - 1]}`).toBe(true);
        }
      }
      // The kill caught runs half-way, so the checks above were about batches in flight.
      const cutShort = [...upstream.reached('first')].filter((tag) => !acknowledged.includes(tag));
      expect(cutShort.length).toBeGreaterThan(0);
    } finally {
      await opened.close();
    }
  });
});
