/**
 * A revoked service token stops working at trust within a second, on every trust
 * instance, although trust keeps answers about live tokens for a few seconds.
 */
import { createServiceClient } from '@xv/identity/testing';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { newOrganization, postJson, startTrustStack, type TrustStack } from './helpers.js';

const BODY = { schema: 'https://schemas.xv.test/membership', subject: 'usr_123', claim: { member: true } };

/** Asks `trust` until it refuses the token, for at most `withinMs`; the status of the last answer. */
async function statusOnceRefused(trust: RunningService, token: string, withinMs: number) {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const { status } = await postJson(trust, '/api/attestation', BODY, { authorization: `Bearer ${token}` });
    if (status !== 200 || Date.now() >= deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeEachDatabase('revoking a service token', (target) => {
  let stack: TrustStack;
  let second: RunningService;
  let acme: Awaited<ReturnType<typeof newOrganization>>;

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    second = await stack.startTrust();
    acme = await newOrganization(stack, 'Acme Revocations');
  });

  it('a revoked service token is refused within a second by every trust instance', async () => {
    const { id, token } = await createServiceClient(stack.identity!.url, acme.cookie, {
      name: 'attester',
      scopes: ['attest:issue'],
      org_id: acme.orgId,
    });
    const auth = { authorization: `Bearer ${token}` };
    // Both instances have checked the token once, so both hold a cached answer for it.
    expect((await postJson(stack.trust, '/api/attestation', BODY, auth)).status).toBe(200);
    expect((await postJson(second, '/api/attestation', BODY, auth)).status).toBe(200);

    const revoked = await stack.identity!.fetch(`/api/service-clients/${id}`, {
      method: 'DELETE',
      headers: { cookie: acme.cookie },
    });
    expect(revoked.status).toBe(200);

    expect(await statusOnceRefused(stack.trust, token, 1000)).toBe(401);
    expect(await statusOnceRefused(second, token, 1000)).toBe(401);
  });
});
