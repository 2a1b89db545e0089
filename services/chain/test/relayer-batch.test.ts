/**
 * Batched anchoring and the balance floor: public anchors cannot drain the relayer.
 */

import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import type { Database } from '@xv/platform';
import { verifyInclusion } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { createPublicClient, type Hex, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, eventually, randomHash } from './helpers.js';

interface BatchedView {
  mode: string;
  ref: Hex;
  leaf: Hex;
  path: Hex[];
  txHash: Hex;
  explorerUrl: string;
  from: Hex;
  nonce: number;
  status: string;
}

const ANVIL_DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BATCH_ENV = { XV_CHAIN_BATCH_INTERVAL_MS: '300', XV_CHAIN_BATCH_MAX: '64' };

describeEachDatabase('batched anchoring', (target) => {
  let chain: DevChain;
  let database: Database;
  let relayer: RunningService;
  const running: RunningService[] = [];

  const post = (service: RunningService, path: string, hash: string) =>
    service.fetch(path, {
      method: 'POST',
      headers: bearer(TEST_RELAYER_TOKEN),
      body: JSON.stringify({ hash }),
    });
  const batch = async (service: RunningService, hash: string) => {
    const response = await post(service, '/api/batch', hash);
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as BatchedView;
  };
  const nonceOnChain = () =>
    createPublicClient({ transport: http(chain.rpcUrl) }).getTransactionCount({
      address: ANVIL_DEV_ADDRESS,
      blockTag: 'pending',
    });
  const start = async (env: Record<string, string> = {}) => {
    const service = await startRelayer(database, { rpcUrl: chain.rpcUrl, env: { ...BATCH_ENV, ...env } });
    running.push(service);
    return service;
  };

  beforeAll(async () => {
    chain = await startDevChain();
    database = await target.open('chain');
    relayer = await start();
  });
  afterAll(async () => {
    for (const service of running) await service.close().catch(() => {});
  });

  it('a burst of public anchor requests costs one transaction, not one per request', async () => {
    const before = await nonceOnChain();
    const hashes = Array.from({ length: 12 }, randomHash);
    const views = await Promise.all(hashes.map((hash) => batch(relayer, hash)));
    expect(new Set(views.map((v) => v.txHash)).size).toBe(1);
    expect((await nonceOnChain()) - before).toBe(1);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const tx = await client.getTransaction({ hash: views[0]!.txHash });
    for (const [i, view] of views.entries()) {
      expect(view.leaf).toBe(hashes[i]);
      expect(view.ref).toBe(tx.input);
      expect(view.path.length).toBeGreaterThan(0);
      expect(verifyInclusion(view.leaf, view.path, view.ref)).toBe(true);
    }
  });

  it("a batch's explorer page says what it anchored: the Merkle root of how many fingerprints, and when", async () => {
    const views = await Promise.all(
      Array.from({ length: 3 }, randomHash).map((hash) => batch(relayer, hash)),
    );
    expect(new Set(views.map((v) => v.txHash)).size).toBe(1);
    await eventually(async () => {
      const html = await (await relayer.fetch(`/tx/${views[0]!.txHash}`)).text();
      return html.includes('Mined at') ? html : undefined;
    });
    const html = await (await relayer.fetch(`/tx/${views[0]!.txHash}`)).text();
    expect(html).toContain('the Merkle root of a batch of 3 fingerprints');
    expect(html).toContain(views[0]!.ref);
    expect(html).toMatch(/<time datetime="\d{4}-\d\d-\d\dT[^"]+Z">/);

    const single = await batch(relayer, randomHash());
    const alone = await (await relayer.fetch(`/tx/${single.txHash}`)).text();
    expect(alone).toContain('one fingerprint');
    expect(alone).not.toContain('Merkle root');
  });

  it('a batch of one anchors the fingerprint itself, with an empty path', async () => {
    const hash = randomHash();
    const view = await batch(relayer, hash);
    expect(view).toMatchObject({ mode: 'onchain', leaf: hash, ref: hash, path: [] });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    expect((await client.getTransaction({ hash: view.txHash })).input).toBe(hash);
  });

  it('anchoring a fingerprint that is already batched or anchored sends no second transaction', async () => {
    const batched = randomHash();
    const first = await batch(relayer, batched);
    const before = await nonceOnChain();
    expect((await batch(relayer, batched)).txHash).toBe(first.txHash);
    // An immediate anchor of a batched fingerprint is its batch, too.
    const immediate = await post(relayer, '/api/anchors', batched);
    expect(immediate.status).toBe(200);
    expect(((await immediate.json()) as BatchedView).txHash).toBe(first.txHash);
    // And a fingerprint anchored on its own is not batched again.
    const single = randomHash();
    const alone = (await (await post(relayer, '/api/anchors', single)).json()) as BatchedView;
    const again = await batch(relayer, single);
    expect(again).toMatchObject({ txHash: alone.txHash, leaf: single, ref: single, path: [] });
    expect(await nonceOnChain()).toBe(before + 1);
    // Its status answers for a leaf too, with the path to the root.
    const status = (await (
      await relayer.fetch(`/api/anchors/${batched}`, { headers: bearer(TEST_RELAYER_TOKEN) })
    ).json()) as BatchedView;
    expect(status).toMatchObject({ leaf: batched, ref: first.ref, txHash: first.txHash });
  });

  it('two relayer instances sharing a database never anchor a fingerprint twice', async () => {
    const other = await start();
    const before = await nonceOnChain();
    const hashes = Array.from({ length: 8 }, randomHash);
    const views = await Promise.all(hashes.flatMap((hash) => [batch(relayer, hash), batch(other, hash)]));
    for (let i = 0; i < views.length; i += 2) expect(views[i]!.txHash).toBe(views[i + 1]!.txHash);
    // One transaction per flush of an instance, not one per request.
    expect((await nonceOnChain()) - before).toBeLessThan(hashes.length);
    await other.close();
  });

  it('a relayer below its balance floor sends nothing, says so, and sends what it queued once funded, across a restart', async () => {
    const floor = 10n ** 18n;
    // Only relayers with the floor run in this test: another one would send the queue.
    await relayer.close();
    const funds = await createPublicClient({ transport: http(chain.rpcUrl) }).getBalance({
      address: ANVIL_DEV_ADDRESS,
    });
    await chain.rpc('anvil_setBalance', [ANVIL_DEV_ADDRESS, `0x${(floor / 2n).toString(16)}`]);
    const low = await start({ XV_CHAIN_MIN_BALANCE_WEI: floor.toString() });
    const before = await nonceOnChain();

    const queued = randomHash();
    const refused = await post(low, '/api/batch', queued);
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe('relayer_low_balance');
    const immediate = await post(low, '/api/anchors', randomHash());
    expect(immediate.status).toBe(503);
    expect((await immediate.json()).error).toBe('relayer_low_balance');
    const info = await (await low.fetch('/api/relayer')).json();
    expect(info).toMatchObject({ status: 'relayer_low_balance', queued: 1 });
    expect(await nonceOnChain()).toBe(before);

    // A restart while starved keeps the queue.
    await low.close();
    const restarted = await start({ XV_CHAIN_MIN_BALANCE_WEI: floor.toString() });
    expect(await (await restarted.fetch('/api/relayer')).json()).toMatchObject({
      status: 'relayer_low_balance',
      queued: 1,
    });
    await chain.rpc('anvil_setBalance', [ANVIL_DEV_ADDRESS, `0x${funds.toString(16)}`]);
    const sent = await eventually(async () => {
      const response = await restarted.fetch(`/api/anchors/${queued}`, {
        headers: bearer(TEST_RELAYER_TOKEN),
      });
      return response.status === 200 ? ((await response.json()) as BatchedView) : undefined;
    });
    expect(sent).toMatchObject({ leaf: queued, ref: queued, path: [] });
    expect(await (await restarted.fetch('/api/relayer')).json()).toMatchObject({ status: 'ok', queued: 0 });
    await restarted.close();
  });
});
