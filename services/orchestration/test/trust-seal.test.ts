/**
 * `summarise-and-seal` against the real trust service in demo mode: the summary
 * is sealed by the demo issuer, and the receipt verifies.
 */
import {
  answer,
  describeEachDatabase,
  type ModelServer,
  type RunningService,
  startModelServer,
  startService,
} from '@xv/platform/testing';
import { trustService } from '@xv/trust';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { orchestrationService } from '../src/service.js';
import { jsonInit, modelEnv } from './helpers.js';

describeEachDatabase('trust.seal with the trust service', (target) => {
  let trust: RunningService;
  let service: RunningService;
  let model: ModelServer;

  beforeAll(async () => {
    model = await startModelServer();
    trust = await startService(trustService, {
      database: await target.open('trust'),
      // No identity service: every caller is anonymous, so demo mode signs.
      env: { XV_TRUST_DEMO: '1', XV_IDENTITY_URL: 'http://127.0.0.1:9' },
    });
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: {
        ...modelEnv(model, 'm'),
        XV_TRUST_URL: trust.url,
      },
    });
  });
  afterAll(() => model.close());

  it('seals the summary and the receipt verifies', async () => {
    model.script(answer('- Revenue grew 12%.'));
    const response = await service.fetch(
      '/api/wf',
      jsonInit({ workflow: 'summarise-and-seal', input: { text: 'Revenue grew 12% in Q3.', title: 'Q3' } }),
    );
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.result.summary).toBe('- Revenue grew 12%.');
    const receipt = body.result.receipt;
    expect(receipt.receiptId).toMatch(/^rcpt_/);
    expect(receipt.outputHash).toMatch(/^sha256-[0-9a-f]{64}$/);
    const verification = await (await trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`)).json();
    expect(verification.status).toBe('valid');
  });
});
