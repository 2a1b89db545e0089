/**
 * GET and POST /api/verify, POST /api/anchor and GET /api/keys/jwks over HTTP:
 * valid proofs, every kind of failure, tampering at any byte, and anchors checked
 * against the chain itself.
 */
import { TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import fc from 'fast-check';
import { createPublicClient, type Hex, http } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import type { TrustDb } from '../src/db.js';
import type { ReceiptView } from '../src/receipts/receipts.js';
import {
  eventually,
  markVerified,
  newOrganization,
  postJson,
  startTrustStack,
  type TrustStack,
} from './helpers.js';

const RELAYER_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describeEachDatabase('verification', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;
  let receipt: ReceiptView;
  let proof: string;

  const sealFor = async (cookie: string, body: Record<string, unknown> = {}) =>
    (
      await postJson(
        stack.trust,
        '/api/seal',
        { modelId: 'model-a', output: { answer: 42 }, ...body },
        { cookie },
      )
    ).json();
  const verifyProof = (body: unknown) => postJson(stack.trust, '/api/verify', body);

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true });
    acme = await newOrganization(stack, 'Acme Verified');
    await markVerified(stack, acme.orgId);
    receipt = await sealFor(acme.cookie);
    proof = JSON.stringify(receipt.manifest);
  });

  it('GET /api/verify reports a valid, intact receipt with its issuer and no anchor yet', async () => {
    const response = await stack.trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'valid',
      integrity: 'intact',
      manifestHash: receipt.manifestHash,
      receiptId: receipt.receiptId,
      issuer: { orgId: acme.orgId, orgName: 'Acme Verified', verified: true },
      anchor: { onChain: false, txHash: null },
    });
  });

  it('GET /api/verify answers an unknown receipt with 404 and a malformed id with 400', async () => {
    const unknown = await stack.trust.fetch('/api/verify?receiptId=rcpt_00000000000000000000000000');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('receipt_not_found');
    for (const query of ['', '?receiptId=', '?receiptId=abc', '?receiptId=rcpt_%00']) {
      expect((await stack.trust.fetch(`/api/verify${query}`)).status).toBe(400);
    }
  });

  it('POST /api/anchor anchors on chain; GET /api/verify confirms it against the chain', async () => {
    const response = await postJson(stack.trust, '/api/anchor', { receiptId: receipt.receiptId });
    expect(response.status).toBe(200);
    const anchor = await response.json();
    const ref = `0x${receipt.manifestHash.slice('sha256-'.length)}`;
    expect(anchor).toMatchObject({ mode: 'onchain', ref });
    expect(anchor.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(anchor.explorerUrl).toBe(`${stack.relayer.url}/tx/${anchor.txHash}`);

    const verified = await eventually(async () => {
      const body = await (await stack.trust.fetch(`/api/verify?receiptId=${receipt.receiptId}`)).json();
      return body.anchor.onChain ? body : undefined;
    });
    expect(verified.anchor).toMatchObject({ onChain: true, txHash: anchor.txHash });

    // Independently: the transaction exists, carries the hash, and the relayer sent it.
    const client = createPublicClient({ transport: http(stack.chain.rpcUrl) });
    const tx = await client.getTransaction({ hash: anchor.txHash as Hex });
    expect(tx.input).toBe(ref);
    expect(tx.from.toLowerCase()).toBe(RELAYER_ADDRESS);
    expect((await client.getTransactionReceipt({ hash: anchor.txHash as Hex })).status).toBe('success');
  });

  it('anchoring twice returns the existing anchor', async () => {
    const first = await (await postJson(stack.trust, '/api/anchor', { receiptId: receipt.receiptId })).json();
    const second = await (
      await postJson(stack.trust, '/api/anchor', { receiptId: receipt.receiptId })
    ).json();
    expect(second).toEqual(first);
    const relayerView = await (
      await stack.relayer.fetch(`/api/anchors/${first.ref}`, {
        headers: { authorization: `Bearer ${TEST_RELAYER_TOKEN}` },
      })
    ).json();
    expect(relayerView.attempts).toBe(1);
  });

  it('POST /api/anchor answers an unknown receipt with 404 and a bad body with 400', async () => {
    expect(
      (await postJson(stack.trust, '/api/anchor', { receiptId: 'rcpt_00000000000000000000000000' })).status,
    ).toBe(404);
    expect((await postJson(stack.trust, '/api/anchor', {})).status).toBe(400);
    expect((await postJson(stack.trust, '/api/anchor', { receiptId: 7 })).status).toBe(400);
  });

  it('GET /api/verify says onChain false when the chain does not carry the anchor', async () => {
    const other = await sealFor(acme.cookie);
    await postJson(stack.trust, '/api/anchor', { receiptId: other.receiptId });
    // Point the stored anchor at an unrelated transaction: the chain, not the database, decides.
    const { trustDatabase } = stack;
    await (trustDatabase.kysely as TrustDb)
      .updateTable('receipts')
      .set({ anchor_ref: `0x${'ab'.repeat(32)}` })
      .where('receipt_id', '=', other.receiptId)
      .execute();
    const body = await (await stack.trust.fetch(`/api/verify?receiptId=${other.receiptId}`)).json();
    expect(body.anchor.onChain).toBe(false);
  });

  it('POST /api/verify accepts the proof as a string and reports valid/intact', async () => {
    const response = await verifyProof({ proof });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'valid',
      integrity: 'intact',
      manifestHash: receipt.manifestHash,
      issuer: { orgId: acme.orgId },
    });
  });

  it('POST /api/verify uses a given publicJwk instead of the key set', async () => {
    const { keys } = await (await stack.trust.fetch('/api/keys/jwks')).json();
    const own = keys.find((k: { kid: string }) => k.kid === acme.orgId);
    expect(await (await verifyProof({ proof, publicJwk: own.jwk })).json()).toMatchObject({
      status: 'valid',
    });
    expect(await (await verifyProof({ proof, publicJwk: own })).json()).toMatchObject({ status: 'valid' });
    const stranger = await newOrganization(stack, 'Stranger');
    await sealFor(stranger.cookie);
    const { keys: after } = await (await stack.trust.fetch('/api/keys/jwks')).json();
    const foreign = after.find((k: { kid: string }) => k.kid === stranger.orgId);
    const result = await (await verifyProof({ proof, publicJwk: foreign.jwk })).json();
    expect(result).toMatchObject({ status: 'invalid', reason: 'bad_signature' });
    const bad = await verifyProof({ proof, publicJwk: { kty: 'RSA', n: 'x', e: 'AQAB' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe('invalid_public_key');
  });

  it('POST /api/verify reports a changed claim as tampered', async () => {
    // Without the stated hash, only the signatures can tell.
    const { manifestHash: _stated, ...manifest } = structuredClone(receipt.manifest);
    manifest.claim.modelId = 'model-b';
    expect(await (await verifyProof({ proof: JSON.stringify(manifest) })).json()).toMatchObject({
      status: 'invalid',
      integrity: 'tampered',
      reason: 'tampered',
    });
  });

  it('POST /api/verify reports a swapped signature as bad_signature', async () => {
    const other = await sealFor(acme.cookie);
    const manifest = structuredClone(receipt.manifest);
    manifest.signatures.p256Sig = other.manifest.signatures.p256Sig;
    expect(await (await verifyProof({ proof: JSON.stringify(manifest) })).json()).toMatchObject({
      status: 'invalid',
      integrity: 'intact',
      reason: 'bad_signature',
      checks: { p256Sig: false, ethSig: true },
    });
  });

  it('POST /api/verify gives each of many distinct proofs sent at once its own verdict', async () => {
    // Checked together on the signing threads: no verdict may land on another proof.
    const sealed: ReceiptView[] = await Promise.all(Array.from({ length: 12 }, () => sealFor(acme.cookie)));
    const proofs = sealed.map((r) => structuredClone(r.manifest));
    const { manifestHash: _stated, ...changedClaim } = proofs[3]!;
    changedClaim.claim.modelId = 'model-b';
    proofs[3] = changedClaim as (typeof proofs)[number];
    proofs[5]!.signatures.ethSig = sealed[6]!.manifest.signatures.ethSig;
    proofs[8]!.signatures.p256Sig = sealed[9]!.manifest.signatures.p256Sig;
    const verdicts = await Promise.all(
      proofs.map(async (manifest) => (await verifyProof({ proof: JSON.stringify(manifest) })).json()),
    );
    const expected = (n: number) => {
      if (n === 3) return { valid: false, reason: 'tampered', checks: { p256Sig: false, ethSig: false } };
      if (n === 5) return { valid: false, reason: 'bad_signature', checks: { p256Sig: true, ethSig: false } };
      if (n === 8) return { valid: false, reason: 'bad_signature', checks: { p256Sig: false, ethSig: true } };
      return { valid: true, manifestHash: sealed[n]!.manifestHash, checks: { p256Sig: true, ethSig: true } };
    };
    for (const [n, verdict] of verdicts.entries()) expect(verdict).toMatchObject(expected(n));
  });

  it('POST /api/verify reports an issuer without published keys as unknown_issuer', async () => {
    const manifest = structuredClone(receipt.manifest);
    manifest.claim.issuer.orgId = 'org_0000000000000000000000none';
    const result = await (await verifyProof({ proof: JSON.stringify(manifest) })).json();
    expect(result).toMatchObject({ status: 'invalid', reason: 'unknown_issuer' });
  });

  it('POST /api/verify answers a malformed proof with 400', async () => {
    for (const body of [
      { proof: 'not json' },
      { proof: '[]' },
      { proof: '{"claim":1,"signatures":{}}' },
      { proof: '{"signatures":{}}' },
      {},
      { proof: '' },
    ]) {
      const response = await verifyProof(body);
      expect(response.status).toBe(400);
    }
  });

  it('POST /api/verify refuses a 10,000-deep proof object with 400 too_deep, not a crash', async () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const response = await postJson(stack.trust, '/api/verify', `{"proof":${deep}}`);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('too_deep');
  });

  it('fails verification when any single byte of the proof changes', async () => {
    const bytes = Buffer.from(proof, 'utf8');
    await fc.assert(
      fc.asyncProperty(
        fc.nat(bytes.length - 1),
        fc.integer({ min: 1, max: 255 }),
        async (position, delta) => {
          const changed = Buffer.from(bytes);
          changed[position] = (changed[position]! + delta) % 256;
          const response = await verifyProof({ proof: changed.toString('utf8') });
          if (response.status === 400) return; // no longer a manifest at all
          expect(response.status).toBe(200);
          expect((await response.json()).status).not.toBe('valid');
        },
      ),
      { numRuns: 300 },
    );
    // And every position at least once, with a printable substitute.
    for (let position = 0; position < bytes.length; position++) {
      const changed = Buffer.from(bytes);
      changed[position] = changed[position] === 0x30 ? 0x31 : 0x30;
      const response = await verifyProof({ proof: changed.toString('utf8') });
      if (response.status !== 400) expect((await response.json()).status).not.toBe('valid');
    }
  });

  it('GET /api/keys/jwks publishes each issuer key as the spec shows, plus its status', async () => {
    const response = await stack.trust.fetch('/api/keys/jwks');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const { keys } = await response.json();
    const own = keys.find((k: { kid: string }) => k.kid === acme.orgId);
    expect(own).toMatchObject({
      kid: acme.orgId,
      keyId: receipt.manifest.claim.issuer.keyId,
      did: receipt.manifest.claim.issuer.did,
      jwk: { kty: 'EC', crv: 'P-256' },
      ethAddress: receipt.manifest.claim.issuer.ethAddress,
      status: 'active',
      retiredAt: null,
    });
    expect(own.jwk.x).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(own.jwk).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(own.ethAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });
});
