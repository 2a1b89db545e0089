/**
 * A graceful stop interrupts the steps in flight (it does not wait out their
 * timeout) and hands their runs back, unrecorded, for the next start to resume.
 */
import { describeEachDatabase, startService } from '@xv/platform/testing';
import { expect, it } from 'vitest';
import type { OrchestrationDatabase } from '../src/db.js';
import { orchestrationService } from '../src/service.js';
import { jsonInit, type RunningOrchestration, startUpstream, workflowFolder } from './helpers.js';

describeEachDatabase('stopping with a step in flight', (target) => {
  it('interrupts the step and hands its run back', async () => {
    const upstream = await startUpstream();
    const folder = workflowFolder([
      {
        name: 'blocked-call',
        description: 'One call that hangs until released.',
        input: { properties: { tag: { type: 'string' } }, required: ['tag'] },
        steps: [
          {
            id: 'call',
            type: 'connector',
            connector: 'http',
            with: { url: `${upstream.url}/hang` },
            timeoutMs: 600_000,
          },
        ],
      },
    ]);
    const database = (await target.open('orchestration')) as OrchestrationDatabase;
    const service: RunningOrchestration = await startService(orchestrationService, {
      database,
      env: { XV_WORKFLOWS_DIR: folder, XV_WF_HTTP_ALLOWED_HOSTS: upstream.host },
    });
    upstream.block('/hang');
    const pending = service.fetch('/api/wf', jsonInit({ workflow: 'blocked-call', input: { tag: 'x' } }));
    pending.catch(() => {});
    while (upstream.hits('/hang') === 0) await new Promise((r) => setTimeout(r, 10));

    // Resolves only if the step in flight is interrupted: its timeout is ten minutes away.
    await service.close();
    const runs = await database.kysely.selectFrom('wf_runs').selectAll().execute();
    expect(runs.map((run) => [run.status, Number(run.lease_until)])).toEqual([['running', 0]]);
    expect(await database.kysely.selectFrom('wf_steps').selectAll().execute()).toEqual([]);
    upstream.release('/hang');
  });
});
