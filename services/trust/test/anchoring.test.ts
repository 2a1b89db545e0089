/**
 * Anchoring cannot drain the relayer: public anchors are batched, immediate anchors
 * spend a per-organization daily budget, and a batched anchor verifies only through
 * its inclusion proof against the root the chain carries.
 */

import { createServiceClient } from '@xv/identity/testing';
import { describeEachDatabase } from '@xv/platform/testing';
import { concat, createPublicClient, type Hex, http, keccak256 } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { createVerifier } from '../src/client/lib/verifier.js';
import type { TrustDb } from '../src/db.js';
import { verifierRules } from '../src/http/verdict-words.js';
import type { ReceiptView } from '../src/receipts/receipts.js';
import { eventually, newOrganization, postJson, startTrustStack, type TrustStack } from './helpers.js';

const RELAYER_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

interface Anchor {
  mode: string;
  txHash: Hex;
  ref: Hex;
  explorerUrl: string;
  version: number;
  root: Hex;
  path: Hex[];
  notice?: string;
}

/** The verifier code the `/verify` page runs in the browser, run here in a bare context. */
const browserVerifier = createVerifier(verifierRules) as {
  verifyProof(
    proof: string,
    jwks: unknown,
  ): Promise<{ status: string; anchor?: { inclusion: boolean; root?: string; problem?: string } }>;
};

describeEachDatabase('anchoring budget', (target) => {
  let stack: TrustStack;
  let acme: Awaited<ReturnType<typeof newOrganization>>;

  const seal = async (body: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const response = await postJson(
      stack.trust,
      '/api/seal',
      { modelId: 'model-a', output: `output ${Math.random()}`, ...body },
      { cookie: acme.cookie, ...headers },
    );
    expect(response.status).toBe(200);
    return (await response.json()) as ReceiptView & { anchor: Anchor };
  };
  const anchor = (receiptId: string, headers: Record<string, string> = {}) =>
    postJson(stack.trust, '/api/anchor', { receiptId }, headers);
  const anchored = async (receiptId: string, headers: Record<string, string> = {}) => {
    const response = await anchor(receiptId, headers);
    expect(response.status).toBe(200);
    return (await response.json()) as Anchor;
  };
  const transactionsSent = () =>
    createPublicClient({ transport: http(stack.chain.rpcUrl) }).getTransactionCount({
      address: RELAYER_ADDRESS,
      blockTag: 'pending',
    });
  const verified = (receiptId: string) =>
    eventually(async () => {
      const body = await (await stack.trust.fetch(`/api/verify?receiptId=${receiptId}`)).json();
      return body.anchor.onChain || body.anchor.problem !== 'pending' ? body : undefined;
    });
  const db = () => stack.trustDatabase.kysely as TrustDb;

  beforeAll(async () => {
    stack = await startTrustStack(target, { identity: true, env: { XV_TRUST_ANCHOR_DAILY_BUDGET: '2' } });
    acme = await newOrganization(stack, 'Acme Anchors');
  });

  it('a stranger anchoring many receipts pays for one transaction per batch, not one per receipt', async () => {
    const receipts = await Promise.all(Array.from({ length: 6 }, () => seal()));
    const before = await transactionsSent();
    const anchors = await Promise.all(receipts.map((r) => anchored(r.receiptId)));
    // The burst may straddle one flush of the relayer: at most two batches, never one per receipt.
    const batches = new Set(anchors.map((a) => a.txHash)).size;
    expect(batches).toBeLessThanOrEqual(2);
    expect((await transactionsSent()) - before).toBe(batches);
    for (const [i, a] of anchors.entries()) {
      expect(a).toMatchObject({
        mode: 'onchain',
        version: 2,
        ref: `0x${receipts[i]!.manifestHash.slice(7)}`,
      });
      expect(a.path.length).toBeGreaterThan(0);
      expect(a.explorerUrl).toBe(`${stack.relayer.url}/tx/${a.txHash}`);
    }
    const result = await verified(receipts[3]!.receiptId);
    expect(result.anchor).toMatchObject({
      onChain: true,
      txHash: anchors[3]!.txHash,
      root: anchors[3]!.root,
    });
  });

  it('anchoring a receipt again, while it is queued or after, returns its anchor and sends no second transaction', async () => {
    const receipt = await seal();
    const before = await transactionsSent();
    const [first, second] = await Promise.all([anchored(receipt.receiptId), anchored(receipt.receiptId)]);
    expect(second.txHash).toBe(first.txHash);
    expect((await anchored(receipt.receiptId)).txHash).toBe(first.txHash);
    expect(await transactionsSent()).toBe(before + 1);
  });

  it('immediate anchoring past the organization daily budget is refused with 429, and other organizations keep theirs', async () => {
    const { token } = await createServiceClient(stack.identity!.url, acme.cookie, {
      name: 'anchorer',
      scopes: ['anchor:write'],
      org_id: acme.orgId,
    });
    const auth = { authorization: `Bearer ${token}` };
    const receipts = await Promise.all(Array.from({ length: 4 }, () => seal()));
    const before = await transactionsSent();
    const spent = await Promise.all(receipts.slice(0, 2).map((r) => anchored(r.receiptId, auth)));
    // Each immediate anchor is a transaction of its own carrying the fingerprint.
    expect(new Set(spent.map((a) => a.txHash)).size).toBe(2);
    for (const a of spent) expect(a).toMatchObject({ root: a.ref, path: [] });
    expect(await transactionsSent()).toBe(before + 2);

    const refused = await anchor(receipts[2]!.receiptId, auth);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe('anchor_budget_exhausted');
    const member = await anchor(receipts[3]!.receiptId, { cookie: acme.cookie });
    expect(member.status).toBe(429);
    expect(await transactionsSent()).toBe(before + 2);
    // Asking again for an anchored receipt spends nothing and is not refused.
    expect((await anchored(receipts[0]!.receiptId, auth)).txHash).toBe(spent[0]!.txHash);

    // Credentials that do not cover the receipt's organization are batched, like anyone's: no 429, no 403.
    const other = await newOrganization(stack, 'Other Anchors');
    const foreign = await anchor(receipts[3]!.receiptId, { cookie: other.cookie });
    expect(foreign.status).toBe(200);
    expect(await transactionsSent()).toBe(before + 3);
    const theirs = await (
      await postJson(stack.trust, '/api/seal', { modelId: 'm', output: 'theirs' }, { cookie: other.cookie })
    ).json();
    expect((await anchored(theirs.receiptId, { cookie: other.cookie })).path).toEqual([]);
  });

  it('concurrent immediate anchors cannot overspend the organization daily budget', async () => {
    const rush = await newOrganization(stack, 'Rush Anchors');
    const receipts = await Promise.all(
      Array.from({ length: 6 }, async (_, i) =>
        (
          await postJson(
            stack.trust,
            '/api/seal',
            { modelId: 'm', output: `rush ${i}` },
            { cookie: rush.cookie },
          )
        ).json(),
      ),
    );
    const before = await transactionsSent();
    const answers = await Promise.all(receipts.map((r) => anchor(r.receiptId, { cookie: rush.cookie })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await transactionsSent()).toBe(before + 2);
  });

  it('anchorNow past the budget still seals, and the receipt joins the next batch, saying so', async () => {
    const receipt = await seal({ anchorNow: true });
    expect(receipt.anchor).toMatchObject({ mode: 'onchain', notice: 'anchor_budget_exhausted', version: 2 });
    expect(receipt.anchor.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await verified(receipt.receiptId)).anchor.onChain).toBe(true);
  });

  it('a batched anchor with a wrong path, or a root the chain does not carry, is not verified', async () => {
    const [a, b] = await Promise.all([seal(), seal()]);
    const [anchorA] = await Promise.all([anchored(a!.receiptId), anchored(b!.receiptId)]);
    expect((await verified(a!.receiptId)).anchor.onChain).toBe(true);

    const stranger = `0x${'ab'.repeat(32)}` as Hex;
    await db()
      .updateTable('receipts')
      .set({ anchor_path: JSON.stringify([stranger]) })
      .where('receipt_id', '=', a!.receiptId)
      .execute();
    const wrongPath = await verified(a!.receiptId);
    expect(wrongPath.anchor).toMatchObject({ onChain: false, problem: 'wrong_path' });

    // A path that is consistent with its own root, but that root is not what the transaction carries.
    const leaf = anchorA!.ref;
    const [lo, hi] = [leaf, stranger].sort();
    const forgedRoot = keccak256(concat([lo as Hex, hi as Hex]));
    await db()
      .updateTable('receipts')
      .set({ anchor_path: JSON.stringify([stranger]), anchor_root: forgedRoot })
      .where('receipt_id', '=', a!.receiptId)
      .execute();
    const notOnChain = await verified(a!.receiptId);
    expect(notOnChain.anchor).toMatchObject({ onChain: false, problem: 'wrong_data' });
  });

  it('while the relayer is short of funds an anchor request is refused with relayer_low_balance, and sent once it is funded', async () => {
    const client = createPublicClient({ transport: http(stack.chain.rpcUrl) });
    const funds = await client.getBalance({ address: RELAYER_ADDRESS });
    // Below the relayer's default floor of 0.001 ETH.
    await stack.chain.rpc('anvil_setBalance', [RELAYER_ADDRESS, '0x1']);
    const before = await transactionsSent();
    // The relayer reads its balance at most once a second: ask until it has seen the new one.
    const refused = await eventually(async () => {
      const receipt = await seal();
      const response = await anchor(receipt.receiptId);
      return response.status === 503 ? { receipt, body: await response.json() } : undefined;
    });
    expect(refused.body.error).toBe('relayer_low_balance');
    const sentWhileStarved = (await transactionsSent()) - before;
    const again = await anchor(refused.receipt.receiptId);
    expect(again.status).toBe(503);
    expect(await transactionsSent()).toBe(before + sentWhileStarved);

    await stack.chain.rpc('anvil_setBalance', [RELAYER_ADDRESS, `0x${funds.toString(16)}`]);
    const sent = await eventually(async () => {
      const response = await anchor(refused.receipt.receiptId);
      return response.status === 200 ? ((await response.json()) as Anchor) : undefined;
    });
    expect(sent.ref).toBe(`0x${refused.receipt.manifestHash.slice(7)}`);
    expect((await verified(refused.receipt.receiptId)).anchor.onChain).toBe(true);
  });

  it('a proof file carrying an anchor verifies it only when its path leads to the root the chain carries', async () => {
    const [a, b] = await Promise.all([seal(), seal()]);
    await Promise.all([anchored(a!.receiptId), anchored(b!.receiptId)]);
    await verified(a!.receiptId);
    const proofOf = async (receiptId: string) =>
      (await (await stack.trust.fetch(`/api/receipts/${receiptId}/proof`)).json()) as Record<
        string,
        unknown
      > & {
        anchor: Anchor;
      };
    const check = async (proof: unknown) => {
      const response = await postJson(stack.trust, '/api/verify', { proof: JSON.stringify(proof) });
      expect(response.status).toBe(200);
      return await response.json();
    };
    const proof = await proofOf(a!.receiptId);
    expect(proof.anchor).toMatchObject({ version: 2, ref: `0x${a!.manifestHash.slice(7)}` });
    expect(await check(proof)).toMatchObject({
      status: 'valid',
      anchor: { onChain: true, txHash: proof.anchor.txHash },
    });

    const stranger = `0x${'cd'.repeat(32)}` as Hex;
    const wrongPath = await check({ ...proof, anchor: { ...proof.anchor, path: [stranger] } });
    expect(wrongPath).toMatchObject({ status: 'valid', anchor: { onChain: false, problem: 'wrong_path' } });
    // Another receipt's anchor does not anchor this one.
    const borrowed = await check({ ...proof, anchor: (await proofOf(b!.receiptId)).anchor });
    expect(borrowed.anchor).toMatchObject({ onChain: false, problem: 'wrong_ref' });
    // A self-consistent path to a root that the transaction does not carry.
    const [lo, hi] = [proof.anchor.ref, stranger].sort();
    const forged = { ...proof.anchor, path: [stranger], root: keccak256(concat([lo as Hex, hi as Hex])) };
    expect((await check({ ...proof, anchor: forged })).anchor).toMatchObject({
      onChain: false,
      problem: 'wrong_data',
    });

    // Version 1, before batching: the transaction carries the fingerprint itself.
    const single = await seal();
    const own = await anchored(single.receiptId, {});
    await verified(single.receiptId);
    const v1 = { ...(await proofOf(single.receiptId)), anchor: { ref: own.ref, txHash: own.txHash } };
    expect((await check(v1)).anchor).toMatchObject({ onChain: true, root: own.ref, path: [] });

    for (const anchor of [
      { ref: 'nope', txHash: own.txHash },
      { ...proof.anchor, version: 3 },
      [],
      { ...proof.anchor, extra: 1 },
    ]) {
      const response = await postJson(stack.trust, '/api/verify', {
        proof: JSON.stringify({ ...proof, anchor }),
      });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('invalid_proof');
    }
  });

  it('the in-browser verifier accepts a proof anchored in a batch only when its path leads to the root the chain carries', async () => {
    const [a, b] = await Promise.all([seal(), seal()]);
    await Promise.all([anchored(a!.receiptId), anchored(b!.receiptId)]);
    await verified(a!.receiptId);
    const proof = await (await stack.trust.fetch(`/api/receipts/${a!.receiptId}/proof`)).json();
    const jwks = await (await stack.trust.fetch('/api/keys/jwks')).json();
    const inBrowser = await browserVerifier.verifyProof(JSON.stringify(proof), jwks);
    expect(inBrowser).toMatchObject({
      status: 'valid',
      anchor: { inclusion: true, root: proof.anchor.root },
    });
    const chainSays = async (txHash: string, root: string) =>
      (await stack.trust.fetch(`/api/anchor/check?${new URLSearchParams({ txHash, root })}`)).json();
    expect(await chainSays(proof.anchor.txHash, proof.anchor.root)).toMatchObject({ onChain: true });

    const stranger = `0x${'ef'.repeat(32)}`;
    const wrongPath = { ...proof, anchor: { ...proof.anchor, path: [stranger] } };
    expect((await browserVerifier.verifyProof(JSON.stringify(wrongPath), jwks)).anchor).toMatchObject({
      inclusion: false,
      problem: 'wrong_path',
    });
    const [lo, hi] = [proof.anchor.ref, stranger].sort();
    const forgedRoot = keccak256(concat([lo as Hex, hi as Hex]));
    const forged = { ...proof, anchor: { ...proof.anchor, path: [stranger], root: forgedRoot } };
    expect((await browserVerifier.verifyProof(JSON.stringify(forged), jwks)).anchor).toMatchObject({
      inclusion: true,
    });
    // The path is consistent, but the chain does not carry that root.
    expect(await chainSays(proof.anchor.txHash, forgedRoot)).toMatchObject({
      onChain: false,
      problem: 'wrong_data',
    });
    expect((await stack.trust.fetch('/api/anchor/check?txHash=0x12&root=nope')).status).toBe(400);
  });

  it('an anchor stored before batching (no root, no path) still verifies', async () => {
    const receipt = await seal();
    await anchored(receipt.receiptId);
    await db()
      .updateTable('receipts')
      .set({ anchor_root: null, anchor_path: null })
      .where('receipt_id', '=', receipt.receiptId)
      .execute();
    // A batch of one: the transaction carries the fingerprint itself, as every anchor did before.
    const result = await verified(receipt.receiptId);
    expect(result.anchor.onChain).toBe(true);
  });
});
