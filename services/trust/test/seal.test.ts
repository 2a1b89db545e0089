/**
 * POST /api/seal over HTTP, with the real identity service behind the SSO session.
 */
import { createHash } from 'node:crypto';
import {
  createServiceClient,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPasskey,
} from '@xv/identity/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import canonicalize from 'canonicalize';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TrustDb } from '../src/db.js';
import {
  markVerified,
  newOrganization,
  PASSWORD,
  postJson,
  startTrustStack,
  type TrustStack,
} from './helpers.js';

const sha256 = (data: string) => `sha256-${createHash('sha256').update(data, 'utf8').digest('hex')}`;
const jcs = (value: unknown) => (canonicalize as unknown as (v: unknown) => string)(value);

describeEachDatabase('POST /api/seal with an SSO session', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  const seal = (body: unknown, cookie = acme.cookie, headers: Record<string, string> = {}) =>
    postJson(stack.trust, '/api/seal', body, { cookie, ...headers });

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme Analytics');
  });

  it('returns a receipt with every field of the spec, issued by the session organization', async () => {
    const response = await seal({ modelId: 'gpt-x', output: 'The answer is 42.' });
    expect(response.status).toBe(200);
    const receipt = await response.json();
    expect(receipt).toMatchObject({
      issuerId: acme.orgId,
      issuerName: 'Acme Analytics',
      identityVerified: false,
      authLevel: acme.session.aal,
      tier: 1,
      modelId: 'gpt-x',
      anchor: { mode: 'none' },
    });
    expect(receipt.receiptId).toMatch(/^rcpt_[0-9a-z]{26}$/);
    expect(receipt.outputHash).toBe(sha256('The answer is 42.'));
    expect(receipt.manifestHash).toMatch(/^sha256-[0-9a-f]{64}$/);
    expect(receipt.p256Sig).toMatch(/^[A-Za-z0-9_-]{86}$/);
    expect(receipt.ethSig).toMatch(/^0x[0-9a-f]{130}$/);
    expect(receipt.manifest.claim).toMatchObject({
      receiptId: receipt.receiptId,
      modelId: 'gpt-x',
      outputHash: receipt.outputHash,
      tier: 1,
      authLevel: acme.session.aal,
      issuer: { orgId: acme.orgId, name: 'Acme Analytics', identityVerified: false },
    });
    expect(receipt.manifest.claim.issuer.did).toMatch(new RegExp(`^did:web:.+:o:${acme.orgId}$`));
    expect(receipt.manifestHash).toBe(sha256(jcs(receipt.manifest.claim)));
    expect(receipt.manifest.signatures).toEqual({ p256Sig: receipt.p256Sig, ethSig: receipt.ethSig });
    expect(receipt.verifyUrl).toBe(`${stack.trust.url}/verify/${receipt.receiptId}`);
  });

  it('hashes a JSON output in its RFC 8785 form, whatever its key order', async () => {
    const a = await (
      await seal({ modelId: 'm', output: { b: [1, 2.5, 'x'], a: { d: null, c: true } } })
    ).json();
    const b = await (
      await seal({ modelId: 'm', output: { a: { c: true, d: null }, b: [1, 2.5, 'x'] } })
    ).json();
    expect(a.outputHash).toBe(sha256('{"a":{"c":true,"d":null},"b":[1,2.5,"x"]}'));
    expect(b.outputHash).toBe(a.outputHash);
  });

  it('hashes the input without storing it, unless the caller opts in', async () => {
    const input = { prompt: 'secret prompt', temperature: 0 };
    const plain = await (await seal({ modelId: 'm', output: 'o', input })).json();
    expect(plain.inputHash).toBe(sha256(jcs(input)));
    expect(plain.manifest.claim.inputHash).toBe(plain.inputHash);
    const kept = await (await seal({ modelId: 'm', output: 'o', input, storeInput: true })).json();
    const db = stack.trustDatabase.kysely as TrustDb;
    const rows = await db
      .selectFrom('receipts')
      .select(['receipt_id', 'input_json'])
      .where('receipt_id', 'in', [plain.receiptId, kept.receiptId])
      .execute();
    const stored = Object.fromEntries(
      rows.map((r: { receipt_id: string; input_json: string | null }) => [r.receipt_id, r.input_json]),
    );
    expect(stored[plain.receiptId]).toBeNull();
    expect(JSON.parse(stored[kept.receiptId]!)).toEqual(input);
    const without = await (await seal({ modelId: 'm', output: 'o' })).json();
    expect(without.inputHash).toBeUndefined();
    expect(without.manifest.claim).not.toHaveProperty('inputHash');
  });

  it('reports the organization as identity-verified once identity says so', async () => {
    const verified = await newOrganization(stack, 'Verified Bank');
    await markVerified(stack, verified.orgId);
    const receipt = await (await seal({ modelId: 'm', output: 'o' }, verified.cookie)).json();
    expect(receipt.identityVerified).toBe(true);
    expect(receipt.manifest.claim.issuer.identityVerified).toBe(true);
  });

  it('answers a missing modelId or output with 400', async () => {
    for (const body of [{ output: 'o' }, { modelId: 'm' }, { modelId: '', output: 'o' }, {}]) {
      const response = await seal(body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('invalid_request');
    }
    expect((await seal('{"modelId":')).status).toBe(400);
    expect((await seal({ modelId: 'm', output: 'o', tier: 'high' })).status).toBe(400);
    expect((await seal({ modelId: 'm', output: 'o', tier: 9 })).status).toBe(400);
  });

  it('answers tier 2 and above without AAL3 with 403 stepup_required and a step-up URL', async () => {
    for (const tier of [2, 3]) {
      const response = await seal({ modelId: 'm', output: 'o', tier }, acme.cookie, {
        referer: `${stack.trust.url}/verify`,
      });
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body).toMatchObject({ ok: false, error: 'stepup_required' });
      const url = new URL(body.stepUpUrl);
      expect(`${url.origin}${url.pathname}`).toBe(`${stack.identity!.url}/step-up`);
      expect(url.searchParams.get('aal')).toBe('AAL3');
      expect(url.searchParams.get('redirect')).toBe(`${stack.trust.url}/verify`);
    }
  });

  it('seals tier 2 once the person has stepped up to AAL3 with a device-bound passkey', async () => {
    const person = await newOrganization(stack, 'Passkey Labs');
    const identityUrl = stack.identity!.url;
    const sealTier2 = (cookie: string) => seal({ modelId: 'm', output: 'o', tier: 2 }, cookie);

    const refused = await sealTier2(person.cookie);
    expect(refused.status).toBe(403);
    const { stepUpUrl } = await refused.json();
    // The step-up page sends an AAL1 session to sign in at AAL3, where a passkey is offered.
    const stepUp = await fetch(stepUpUrl, { headers: { cookie: person.cookie }, redirect: 'manual' });
    expect(new URL(stepUp.headers.get('location')!, identityUrl).searchParams.get('aal')).toBe('AAL3');

    const securityKey = new SoftwareAuthenticator();
    expect(
      await registerPasskey(identityUrl, person.cookie, securityKey, { password: PASSWORD }),
    ).toMatchObject({ aal: 'AAL3' });
    const stepped = await signInWithPasskey(identityUrl, securityKey, person.cookie);
    expect(stepped.session.aal).toBe('AAL3');

    const response = await sealTier2(stepped.cookie);
    expect(response.status).toBe(200);
    const receipt = await response.json();
    expect(receipt).toMatchObject({ issuerId: person.orgId, tier: 2, authLevel: 'AAL3' });
    expect(receipt.manifest.claim).toMatchObject({ tier: 2, authLevel: 'AAL3' });
    const verification = await stack.trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`);
    expect((await verification.json()).status).toBe('valid');
  });

  it('still refuses tier 2 after a step-up with a synced passkey (AAL2)', async () => {
    const person = await newOrganization(stack, 'Synced Passkey Inc');
    const identityUrl = stack.identity!.url;
    const synced = new SoftwareAuthenticator({ deviceBound: false });
    expect(await registerPasskey(identityUrl, person.cookie, synced, { password: PASSWORD })).toMatchObject({
      aal: 'AAL2',
    });
    const stepped = await signInWithPasskey(identityUrl, synced, person.cookie);
    expect(stepped.session.aal).toBe('AAL2');
    const response = await seal({ modelId: 'm', output: 'o', tier: 2 }, stepped.cookie);
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('stepup_required');
  });

  it('does not send the person back to a foreign site after step-up', async () => {
    const body = await (
      await seal({ modelId: 'm', output: 'o', tier: 2 }, acme.cookie, { referer: 'https://evil.example/x' })
    ).json();
    expect(new URL(body.stepUpUrl).searchParams.get('redirect')).toBe(`${stack.trust.url}/verify`);
  });

  it('refuses a caller without a session outside demo mode', async () => {
    const response = await postJson(stack.trust, '/api/seal', { modelId: 'm', output: 'o' });
    expect(response.status).toBe(401);
    const forged = await seal({ modelId: 'm', output: 'o' }, 'xv_session=forged-session-token');
    expect(forged.status).toBe(401);
  });

  it('signs only for organizations the person belongs to', async () => {
    const other = await newOrganization(stack, 'Other Corp');
    const response = await seal({ modelId: 'm', output: 'o', issuerId: other.orgId });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('not_a_member');
    const demo = await seal({ modelId: 'm', output: 'o', issuerId: 'org_demo' });
    expect(demo.status).toBe(403); // the demo issuer exists only in demo mode
  });

  it('seals for a service token with seal:issue bound to the organization, at AAL1 (so tier 1 only)', async () => {
    const other = await newOrganization(stack, 'Token Other');
    const tokenFor = async (scopes: string[]) =>
      (
        await createServiceClient(stack.identity!.url, acme.cookie, {
          name: 'sealer',
          scopes,
          org_id: acme.orgId,
        })
      ).token;
    const auth = { authorization: `Bearer ${await tokenFor(['seal:issue'])}` };
    const sealWith = (body: unknown, headers: Record<string, string>) =>
      postJson(stack.trust, '/api/seal', body, headers);

    const response = await sealWith({ modelId: 'batch-model', output: 'sealed by a machine' }, auth);
    expect(response.status).toBe(200);
    const receipt = await response.json();
    expect(receipt.manifest.claim).toMatchObject({ authLevel: 'AAL1', issuer: { orgId: acme.orgId } });
    expect((await sealWith({ modelId: 'm', output: 'o', issuerId: acme.orgId }, auth)).status).toBe(200);

    const tier2 = await sealWith({ modelId: 'm', output: 'o', tier: 2 }, auth);
    expect(tier2.status).toBe(403);
    expect((await tier2.json()).error).toBe('stepup_required');
    const foreign = await sealWith({ modelId: 'm', output: 'o', issuerId: other.orgId }, auth);
    expect((await foreign.json()).error).toBe('wrong_organization');
    const attestOnly = { authorization: `Bearer ${await tokenFor(['attest:issue'])}` };
    const unscoped = await sealWith({ modelId: 'm', output: 'o' }, attestOnly);
    expect(unscoped.status).toBe(403);
    expect((await unscoped.json()).error).toBe('insufficient_scope');
    expect(
      (await sealWith({ modelId: 'm', output: 'o' }, { authorization: 'Bearer xvs_forged' })).status,
    ).toBe(401);
  });

  it('refuses a cookie-carrying seal from a foreign site', async () => {
    const response = await seal({ modelId: 'm', output: 'o' }, acme.cookie, {
      origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('forbidden_origin');
  });

  it('anchors at once with anchorNow', async () => {
    const receipt = await (await seal({ modelId: 'm', output: 'o', anchorNow: true })).json();
    expect(receipt.anchor).toMatchObject({ mode: 'onchain', ref: `0x${receipt.manifestHash.slice(7)}` });
    expect(receipt.anchor.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(receipt.anchor.explorerUrl).toBe(`${stack.relayer.url}/tx/${receipt.anchor.txHash}`);
  });

  it('serves the proof as a downloadable file equal to the manifest', async () => {
    const receipt = await (await seal({ modelId: 'm', output: 'o' })).json();
    const response = await stack.trust.fetch(`/api/receipts/${receipt.receiptId}/proof`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${receipt.receiptId}.proof.json"`,
    );
    expect(await response.text()).toBe(JSON.stringify(receipt.manifest));
    expect((await stack.trust.fetch('/api/receipts/rcpt_00000000000000000000000000/proof')).status).toBe(404);
    expect((await stack.trust.fetch('/api/receipts/nope/proof')).status).toBe(400);
  });
});

describeEachDatabase('POST /api/seal in demo mode', (target) => {
  let stack: TrustStack;
  beforeAll(async () => {
    stack = await startTrustStack(target, { demo: true });
  });

  it('signs an anonymous seal with the demo issuer, whose keys are published like any other', async () => {
    for (const body of [
      { modelId: 'm', output: 'o' },
      { modelId: 'm', output: 'o', issuerId: 'org_demo' },
    ]) {
      const receipt = await (await postJson(stack.trust, '/api/seal', body)).json();
      expect(receipt).toMatchObject({ issuerId: 'org_demo', identityVerified: false, authLevel: 'AAL1' });
    }
    const { keys } = await (await stack.trust.fetch('/api/keys/jwks')).json();
    expect(keys.filter((k: { kid: string }) => k.kid === 'org_demo')).toHaveLength(1);
  });

  it('does not let an anonymous caller name a real organization', async () => {
    const response = await postJson(stack.trust, '/api/seal', {
      modelId: 'm',
      output: 'o',
      issuerId: 'org_0000000000000000000000000a',
    });
    expect(response.status).toBe(403);
  });

  it('still asks for step-up on tier 2', async () => {
    const response = await postJson(stack.trust, '/api/seal', { modelId: 'm', output: 'o', tier: 2 });
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('stepup_required');
  });

  it('refuses JSON nested deeper than the limit with 400, not a crash', async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await postJson(stack.trust, '/api/seal', `{"modelId":"m","output":${deep}}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('too_deep');
  });
});

describe('tier policy at the domain level', () => {
  it('accepts tier 2 and 3 at AAL3 only', async () => {
    const { needsStepUp } = await import('../src/seal/policy.js');
    expect(needsStepUp(1, 'AAL1')).toBe(false);
    expect(needsStepUp(2, 'AAL2')).toBe(true);
    expect(needsStepUp(3, 'AAL1')).toBe(true);
    expect(needsStepUp(2, 'AAL3')).toBe(false);
    expect(needsStepUp(3, 'AAL3')).toBe(false);
  });
});
