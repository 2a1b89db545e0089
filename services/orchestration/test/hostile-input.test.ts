/**
 * Hostile and malformed input on every public endpoint: always a 4xx with a code,
 * never a 5xx or a hang. Bodies are generated with fast-check.
 */
import { openDatabase } from '@xv/platform';
import { startService, tempDir } from '@xv/platform/testing';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import type { RunningOrchestration } from './helpers.js';

describe('hostile input', () => {
  let service: RunningOrchestration;

  beforeAll(async () => {
    service = await startService(orchestrationService, {
      database: await openDatabase({ service: 'orchestration', dataDir: tempDir() }),
      env: {
        XV_ORCH_ROUTE_PER_MINUTE: '100000',
        XV_ORCH_WF_PER_MINUTE: '100000',
        XV_ORCH_LEAD_PER_MINUTE: '100000',
        XV_ORCH_READ_PER_MINUTE: '100000',
      },
    });
  });

  it('publishes every JSON endpoint in /openapi.json', async () => {
    const { paths } = await (await service.fetch('/openapi.json')).json();
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/api/route',
        '/api/wf',
        '/api/workflows',
        '/api/lead',
        '/api/lead/challenge',
        '/api/leads',
      ]),
    );
    expect(paths['/api/wf'].post.requestBody.required).toBe(true);
  });

  const anyBody = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        prompt: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        difficulty: fc.oneof(fc.constantFrom('fast', 'balanced', 'frontier'), fc.string()),
        workflow: fc.oneof(fc.constantFrom('qualify-lead', 'kb-answer', 'summarise-and-seal'), fc.string()),
        input: fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue()),
        idemKey: fc.oneof(fc.string({ maxLength: 200 }), fc.integer()),
        name: fc.oneof(fc.string(), fc.integer()),
        email: fc.oneof(fc.emailAddress(), fc.string()),
        altcha: fc.string(),
      },
      { requiredKeys: [] },
    ),
  );

  it.each(['/api/route', '/api/wf', '/api/lead'])(
    'answers any JSON body on %s with 4xx and a code (no model configured)',
    async (path) => {
      await fc.assert(
        fc.asyncProperty(anyBody, async (body) => {
          const response = await service.fetch(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const answer = await response.json();
          // With no model configured, routing ends in 503 ai_unavailable, and a valid lead is stored (200).
          if (response.status === 503) expect(answer.error).toBe('ai_unavailable');
          else if (response.status === 502) expect(answer.error).toBe('workflow_failed');
          else if (response.status !== 200) {
            expect(response.status).toBeGreaterThanOrEqual(400);
            expect(response.status).toBeLessThan(500);
            expect(typeof answer.error).toBe('string');
          }
        }),
        { numRuns: 60 },
      );
    },
  );

  it('answers odd run ids and lead queries with 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (id) => {
        const response = await service.fetch(`/api/wf?id=${encodeURIComponent(id)}`);
        expect([400, 404]).toContain(response.status);
        const leads = await service.fetch(
          `/api/leads?limit=${encodeURIComponent(id)}&cursor=${encodeURIComponent(id)}`,
        );
        expect([400, 401]).toContain(leads.status);
      }),
      { numRuns: 60 },
    );
  });
});
