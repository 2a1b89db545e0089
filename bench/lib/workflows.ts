/**
 * @module bench/lib/workflows
 * What the workflow benchmarks run: a local upstream that answers every call at
 * once, and a folder holding the 3-step connector workflow `bench-three` (three
 * `http` calls to that upstream, each step's result stored as it finishes).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';

export const BENCH_WORKFLOW = 'bench-three';

export async function startUpstream() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true,"value":42}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export function workflowFolder(upstreamHost: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'xv-bench-workflows-'));
  const call = (id: string, extra: object = {}) => ({
    id,
    type: 'connector',
    connector: 'http',
    with: { url: `http://${upstreamHost}/${id}`, ...extra },
  });
  writeFileSync(
    join(folder, `${BENCH_WORKFLOW}.yaml`),
    stringify({
      name: BENCH_WORKFLOW,
      description: 'Three HTTP calls, each step persisted.',
      input: { properties: { tag: { type: 'string' } }, required: ['tag'] },
      steps: [
        call('fetch'),
        call('enrich', {
          method: 'POST',
          body: { tag: '{{input.tag}}', value: '{{steps.fetch.output.body.value}}' },
        }),
        call('notify', { method: 'POST', body: { done: true } }),
      ],
      result: { value: '{{steps.fetch.output.body.value}}' },
    }),
  );
  return folder;
}

/** The settings that point the orchestration service at the upstream and lift its rate limits. */
export function workflowEnv(upstreamHost: string): Record<string, string> {
  return {
    XV_LOG_LEVEL: 'silent',
    XV_WORKFLOWS_DIR: workflowFolder(upstreamHost),
    XV_WF_HTTP_ALLOWED_HOSTS: upstreamHost,
    XV_ORCH_WF_PER_MINUTE: '1000000000',
    XV_ORCH_READ_PER_MINUTE: '1000000000',
  };
}
