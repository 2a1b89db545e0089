/**
 * `summarise-and-seal` against the real trust service: in demo mode the summary is
 * sealed by the demo issuer; with `XV_ORCH_TRUST_TOKEN` (a service token with
 * `seal:issue` from the identity service) by that organization. Either receipt verifies.
 */
import { createServiceClient, signUp, startIdentity } from '@xv/identity/testing';
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
import { jsonInit, modelEnv, type RunningOrchestration } from './helpers.js';

describeEachDatabase('trust.seal with the trust service', (target) => {
  let trust: RunningService;
  let service: RunningOrchestration;
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

describeEachDatabase('trust.seal as an organization, with a service token', (target) => {
  let trust: RunningService;
  let service: RunningOrchestration;
  let model: ModelServer;
  let orgId: string;

  beforeAll(async () => {
    model = await startModelServer();
    const identity = await startIdentity(await target.open('identity'));
    const admin = await signUp(identity.url, {
      email: `sealer-${Date.now()}@example.test`,
      password: 'secret1',
      name: 'Sam',
      orgName: 'Sealing Co',
    });
    orgId = admin.session.memberships[0]!.org_id;
    const { token } = await createServiceClient(identity.url, admin.cookie, {
      name: 'orchestration',
      scopes: ['seal:issue'],
      org_id: orgId,
    });
    trust = await startService(trustService, {
      database: await target.open('trust'),
      env: { XV_IDENTITY_URL: identity.url },
    });
    service = await startService(orchestrationService, {
      database: await target.open('orchestration'),
      env: { ...modelEnv(model, 'm'), XV_TRUST_URL: trust.url, XV_ORCH_TRUST_TOKEN: token },
    });
  });
  afterAll(() => model.close());

  it('seals the summary for the organization the token is bound to', async () => {
    model.script(answer('- Costs fell.'));
    const response = await service.fetch(
      '/api/wf',
      jsonInit({ workflow: 'summarise-and-seal', input: { text: 'Costs fell in Q3.' } }),
    );
    expect(response.status).toBe(200);
    const { receipt } = (await response.json()).result;
    expect(receipt.manifest.claim.issuer.orgId).toBe(orgId);
    const verification = await (await trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`)).json();
    expect(verification).toMatchObject({ status: 'valid', issuer: { orgId } });
  });
});
