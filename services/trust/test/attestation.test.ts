/**
 * POST /api/attestation: who may sign for which issuer (contract.md) over HTTP,
 * with real service tokens from the identity service.
 */
import { createServiceClient } from '@xv/identity/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { newOrganization, postJson, startTrustStack, type TrustStack } from './helpers.js';

const BODY = { schema: 'https://schemas.xv.test/membership', subject: 'usr_123', claim: { member: true } };

describeEachDatabase('POST /api/attestation', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  let other: Awaited<ReturnType<typeof newOrganization>>;
  let demoTrust: TrustStack['trust'];
  const attest = (body: unknown, headers: Record<string, string> = {}, service = stack.trust) =>
    postJson(service, '/api/attestation', body, headers);

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme Attest');
    other = await newOrganization(stack, 'Other Attest');
    demoTrust = await stack.startTrust({ XV_TRUST_DEMO: '1' });
  });

  it('signs for the member organization of an SSO session', async () => {
    const response = await attest(BODY, { cookie: acme.cookie });
    expect(response.status).toBe(200);
    const result = await response.json();
    expect(result.issuerId).toBe(acme.orgId);
    const page = await stack.trust.fetch(`/api/attestations/${result.attestationId}`);
    expect(await page.json()).toMatchObject({
      issuerId: acme.orgId,
      signatureValid: true,
      digest: result.digest,
    });
  });

  it('refuses a session signing for an organization it does not belong to', async () => {
    const response = await attest({ ...BODY, issuerId: other.orgId }, { cookie: acme.cookie });
    expect(response.status).toBe(403);
  });

  it('refuses an anonymous caller outside demo mode', async () => {
    expect((await attest(BODY)).status).toBe(401);
    expect((await attest({ ...BODY, issuerId: acme.orgId })).status).toBe(401);
  });

  it('signs for a service token with attest:issue bound to the organization', async () => {
    const { token } = await createServiceClient(stack.identity!.url, acme.cookie, {
      name: 'attester',
      scopes: ['attest:issue'],
      org_id: acme.orgId,
    });
    const auth = { authorization: `Bearer ${token}` };
    const implicit = await attest(BODY, auth);
    expect(implicit.status).toBe(200);
    expect((await implicit.json()).issuerId).toBe(acme.orgId);
    const explicit = await attest({ ...BODY, issuerId: acme.orgId }, auth);
    expect(explicit.status).toBe(200);
    const foreign = await attest({ ...BODY, issuerId: other.orgId }, auth);
    expect(foreign.status).toBe(403);
  });

  it('refuses a token without the attest:issue scope, and a forged token', async () => {
    const { token } = await createServiceClient(stack.identity!.url, acme.cookie, {
      name: 'issuer-only',
      scopes: ['did:issue'],
      org_id: acme.orgId,
    });
    expect((await attest(BODY, { authorization: `Bearer ${token}` })).status).toBe(403);
    expect((await attest(BODY, { authorization: 'Bearer xvs_forged' })).status).toBe(401);
  });

  it('answers a missing schema, subject or claim with 400', async () => {
    for (const body of [
      { subject: 's', claim: 1 },
      { schema: 's', claim: 1 },
      { schema: 's', subject: 's' },
      { schema: '', subject: 's', claim: 1 },
    ]) {
      expect((await attest(body, { cookie: acme.cookie })).status).toBe(400);
    }
  });

  it('signs an anonymous request with the demo issuer in demo mode', async () => {
    const response = await attest(BODY, {}, demoTrust);
    expect(response.status).toBe(200);
    expect((await response.json()).issuerId).toBe('org_demo');
    // Demo mode does not open real organizations to anonymous callers.
    expect((await attest({ ...BODY, issuerId: acme.orgId }, {}, demoTrust)).status).toBe(403);
  });

  it('uses a subject that is an Ethereum address as the EAS recipient', async () => {
    const subject = '0x000000000000000000000000000000000000dEaD';
    const result = await (await attest({ ...BODY, subject }, { cookie: acme.cookie })).json();
    expect(result.attestation.message.recipient).toBe(subject);
  });

  it('malformed subject becomes 0x0: a subject that is no address, DID or XV id is refused', async () => {
    for (const subject of [
      'not a subject',
      '0x1234',
      '0x000000000000000000000000000000000000dead00',
      '0x000000000000000000000000000000000000DeAd',
      'did:',
      'did:Web:example.com',
      'did:web:',
      'usr_',
      'xyz_123',
      'usr_12 3',
    ]) {
      const response = await attest({ ...BODY, subject }, { cookie: acme.cookie });
      expect(response.status, subject).toBe(400);
      expect((await response.json()).error, subject).toBe('invalid_subject');
    }
    for (const subject of [
      '0x000000000000000000000000000000000000dead',
      'did:web:example.com:u:usr_1',
      'did:pkh:eip155:1:0x000000000000000000000000000000000000dEaD',
      'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
      'org_01hzy',
    ]) {
      expect((await attest({ ...BODY, subject }, { cookie: acme.cookie })).status, subject).toBe(200);
    }
  });
});
