/**
 * Per-client rate limits on trust's public writes (`/api/seal`, `/api/attestation`,
 * `/api/anchor`) over HTTP: the client is the signed-in person or the service client,
 * else the address; past its budget a client gets 429 `rate_limited` with
 * `Retry-After` while others are still served, and on PostgreSQL every instance
 * counts against the same budget.
 */
import { randomBytes } from 'node:crypto';
import { createServiceClient } from '@xv/identity/testing';
import type { RunningService } from '@xv/platform/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { newOrganization, postJson, startTrustStack, type TrustStack } from './helpers.js';

const SEAL = { modelId: 'model-a', output: 'limited' };
const ATTEST = { schema: 'https://schemas.xv.test/s', subject: 'usr_1', claim: { ok: true } };
const UNKNOWN_RECEIPT = { receiptId: 'rcpt_00000000000000000000000000' };

async function expectLimited(response: Response) {
  expect(response.status).toBe(429);
  expect(await response.json()).toMatchObject({ ok: false, error: 'rate_limited' });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

describeEachDatabase('trust rate limits', (target) => {
  let stack: TrustStack;
  let ada: Awaited<ReturnType<typeof newOrganization>>;
  let bea: Awaited<ReturnType<typeof newOrganization>>;
  let limited: RunningService;

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    ada = await newOrganization(stack, 'Ada Limited');
    bea = await newOrganization(stack, 'Bea Limited');
    limited = await stack.startTrust({
      XV_TRUST_SEAL_PER_MINUTE: '2',
      XV_TRUST_ATTEST_PER_MINUTE: '2',
      XV_TRUST_ANCHOR_PER_MINUTE: '2',
      XV_TRUST_PROXY: '1',
    });
  });

  it('a person who exceeds the seal limit gets 429 while another person is still served', async () => {
    const seal = (cookie: string) => postJson(limited, '/api/seal', SEAL, { cookie });
    expect((await seal(ada.cookie)).status).toBe(200);
    expect((await seal(ada.cookie)).status).toBe(200);
    await expectLimited(await seal(ada.cookie));
    expect((await seal(bea.cookie)).status).toBe(200);
  });

  it('a service client that exceeds the seal limit gets 429; a person of the same organization is not', async () => {
    const { token } = await createServiceClient(stack.identity!.url, bea.cookie, {
      name: 'sealer',
      scopes: ['seal:issue'],
      org_id: bea.orgId,
    });
    const auth = { authorization: `Bearer ${token}` };
    // The same address as everyone else in this suite: the budget is the client's, not the address's.
    expect((await postJson(limited, '/api/seal', SEAL, auth)).status).toBe(200);
    expect((await postJson(limited, '/api/seal', SEAL, auth)).status).toBe(200);
    await expectLimited(await postJson(limited, '/api/seal', SEAL, auth));
    expect((await postJson(limited, '/api/seal', SEAL, { cookie: bea.cookie })).status).toBe(200);
  });

  it('a person who exceeds the attestation limit gets 429 while another person is still served', async () => {
    const attest = (cookie: string) => postJson(limited, '/api/attestation', ATTEST, { cookie });
    expect((await attest(bea.cookie)).status).toBe(200);
    expect((await attest(bea.cookie)).status).toBe(200);
    await expectLimited(await attest(bea.cookie));
    expect((await attest(ada.cookie)).status).toBe(200);
  });

  it('an address that exceeds the anchor limit gets 429 while another address is still served', async () => {
    const anchor = (ip: string) =>
      postJson(limited, '/api/anchor', UNKNOWN_RECEIPT, { 'x-forwarded-for': ip });
    expect((await anchor('198.51.100.7')).status).toBe(404);
    expect((await anchor('198.51.100.7')).status).toBe(404);
    await expectLimited(await anchor('198.51.100.7'));
    expect((await anchor('198.51.100.8')).status).toBe(404);
  });

  it('an anonymous demo-mode address that exceeds the seal limit gets 429 while another is served', async () => {
    const demo = await stack.startTrust({
      XV_TRUST_DEMO: '1',
      XV_TRUST_SEAL_PER_MINUTE: '2',
      XV_TRUST_PROXY: '1',
    });
    const seal = (ip: string) => postJson(demo, '/api/seal', SEAL, { 'x-forwarded-for': ip });
    expect((await seal('203.0.113.1')).status).toBe(200);
    expect((await seal('203.0.113.1')).status).toBe(200);
    await expectLimited(await seal('203.0.113.1'));
    expect((await seal('203.0.113.2')).status).toBe(200);
  });

  it.runIf(target.dialect === 'postgres')('two instances on PostgreSQL share one budget', async () => {
    const database = await target.open('trust');
    const env = {
      XV_TRUST_SEAL_PER_MINUTE: '2',
      XV_TRUST_ANCHOR_PER_MINUTE: '2',
      XV_TRUST_PROXY: '1',
      // Instances of one service share their key-encryption key (docs/deploy.md).
      XV_TRUST_KEK: randomBytes(32).toString('hex'),
    };
    const first = await stack.startTrust(env, database);
    const second = await stack.startTrust(env, database);
    const seal = (service: RunningService) => postJson(service, '/api/seal', SEAL, { cookie: ada.cookie });
    expect((await seal(first)).status).toBe(200);
    expect((await seal(second)).status).toBe(200);
    await expectLimited(await seal(first));
    await expectLimited(await seal(second));
    const anchor = (service: RunningService) =>
      postJson(service, '/api/anchor', UNKNOWN_RECEIPT, { 'x-forwarded-for': '192.0.2.9' });
    expect((await anchor(second)).status).toBe(404);
    expect((await anchor(first)).status).toBe(404);
    await expectLimited(await anchor(second));
  });
});
