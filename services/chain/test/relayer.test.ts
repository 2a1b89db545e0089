import { ANVIL_CHAIN_ID } from '@xv/chain';
import { type DevChain, startDevChain, startRelayer, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import type { Database } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { createPublicClient, type Hex, http } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, eventually, randomHash } from './helpers.js';

interface AnchorView {
  mode: string;
  ref: string;
  txHash: Hex;
  explorerUrl: string;
  status: string;
  from: Hex;
  nonce: number;
  chainId: number;
  confirmations: number;
  attempts: number;
  blockNumber: number | null;
}

const ANVIL_DEV_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describeEachDatabase('the chain relayer', (target) => {
  let chain: DevChain;
  let database: Database;
  let relayer: RunningService;

  const anchor = (service: RunningService, hash: string) =>
    service.fetch('/api/anchors', {
      method: 'POST',
      headers: bearer(TEST_RELAYER_TOKEN),
      body: JSON.stringify({ hash }),
    });
  const status = async (service: RunningService, ref: string) =>
    (await (
      await service.fetch(`/api/anchors/${ref}`, { headers: bearer(TEST_RELAYER_TOKEN) })
    ).json()) as AnchorView;
  const confirmed = (service: RunningService, ref: string) =>
    eventually(async () => {
      const view = await status(service, ref);
      return view.status === 'confirmed' ? view : undefined;
    });

  beforeAll(async () => {
    chain = await startDevChain();
    database = await target.open('chain');
    relayer = await startRelayer(database, { rpcUrl: chain.rpcUrl });
  });

  it('publishes its address and chain id', async () => {
    const info = await (await relayer.fetch('/api/relayer')).json();
    expect(info).toMatchObject({
      address: ANVIL_DEV_ADDRESS,
      chainId: ANVIL_CHAIN_ID,
      confirmations: 1,
      status: 'ok',
    });
  });

  it('refuses callers without the relayer credential', async () => {
    for (const headers of [
      { 'content-type': 'application/json' },
      bearer('xvc_wrong-token-0123456789abcdef0123'),
      { 'content-type': 'application/json', authorization: `Basic ${TEST_RELAYER_TOKEN}` },
    ]) {
      const response = await relayer.fetch('/api/anchors', {
        method: 'POST',
        headers,
        body: JSON.stringify({ hash: randomHash() }),
      });
      expect(response.status).toBe(401);
      expect((await response.json()).error).toBe('invalid_token');
    }
    expect((await relayer.fetch(`/api/anchors/${randomHash()}`)).status).toBe(401);
  });

  it('answers a hash that is not 32 bytes, or no body, with 400', async () => {
    for (const hash of ['0x1234', 'nothex', `0x${'g'.repeat(64)}`, 42, `0x${'a'.repeat(66)}`]) {
      const response = await anchor(relayer, hash as string);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('invalid_request');
    }
    const empty = await relayer.fetch('/api/anchors', {
      method: 'POST',
      headers: bearer(TEST_RELAYER_TOKEN),
    });
    expect(empty.status).toBe(400);
  });

  it('anchors a hash in a 0-value transaction from the relayer to itself carrying the hash', async () => {
    const hash = randomHash();
    const response = await anchor(relayer, hash);
    expect(response.status).toBe(201);
    const created = (await response.json()) as AnchorView;
    expect(created).toMatchObject({ mode: 'onchain', ref: hash, from: ANVIL_DEV_ADDRESS });
    expect(created.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(created.explorerUrl).toBe(`${relayer.url}/tx/${created.txHash}`);
    const done = await confirmed(relayer, hash);
    expect(done.confirmations).toBeGreaterThanOrEqual(1);

    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const tx = await client.getTransaction({ hash: done.txHash });
    expect(tx.from.toLowerCase()).toBe(ANVIL_DEV_ADDRESS.toLowerCase());
    expect(tx.to?.toLowerCase()).toBe(ANVIL_DEV_ADDRESS.toLowerCase());
    expect(tx.value).toBe(0n);
    expect(tx.input).toBe(hash);
    expect((await client.getTransactionReceipt({ hash: done.txHash })).status).toBe('success');
  });

  it('returns the existing anchor when the same hash is anchored twice', async () => {
    const hash = randomHash();
    const first = (await (await anchor(relayer, hash)).json()) as AnchorView;
    const again = await anchor(relayer, hash.toUpperCase().replace('0X', '0x'));
    expect(again.status).toBe(200);
    expect(((await again.json()) as AnchorView).txHash).toBe(first.txHash);
  });

  it('gives concurrent anchors consecutive nonces and mines them all', async () => {
    const hashes = Array.from({ length: 6 }, randomHash);
    const views = await Promise.all(
      hashes.map(async (hash) => (await (await anchor(relayer, hash)).json()) as AnchorView),
    );
    const nonces = views.map((v) => v.nonce).sort((a, b) => a - b);
    for (let i = 1; i < nonces.length; i++) expect(nonces[i]).toBe(nonces[i - 1]! + 1);
    for (const hash of hashes) await confirmed(relayer, hash);
  });

  it('keeps nonces right across a restart', async () => {
    const before = (await (await anchor(relayer, randomHash())).json()) as AnchorView;
    await relayer.close();
    relayer = await startRelayer(database, { rpcUrl: chain.rpcUrl });
    const hashes = [randomHash(), randomHash()];
    const after = await Promise.all(
      hashes.map(async (h) => (await (await anchor(relayer, h)).json()) as AnchorView),
    );
    expect(after.map((a) => a.nonce).sort((a, b) => a - b)).toEqual([before.nonce + 1, before.nonce + 2]);
    await confirmed(relayer, before.ref);
    for (const hash of hashes) await confirmed(relayer, hash);
  });

  it('re-sends an anchor whose nonce another transaction of the same key used', async () => {
    // Someone spends the relayer's next nonce behind its back (anvil unlocks its dev accounts).
    await chain.rpc('eth_sendTransaction', [
      { from: ANVIL_DEV_ADDRESS, to: ANVIL_DEV_ADDRESS, value: '0x1' },
    ]);
    const hash = randomHash();
    const created = (await (await anchor(relayer, hash)).json()) as AnchorView;
    const done = await confirmed(relayer, hash);
    expect(done.nonce).toBeGreaterThan(created.nonce);
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    expect((await client.getTransaction({ hash: done.txHash })).input).toBe(hash);
  });

  it('serves an explorer page per transaction', async () => {
    const hash = randomHash();
    await anchor(relayer, hash);
    const view = await confirmed(relayer, hash);
    const page = await relayer.fetch(`/tx/${view.txHash}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain(view.txHash);
    expect(html).toContain(hash);
    expect(html).toContain('the XV relayer');
    expect((await relayer.fetch(`/tx/${randomHash()}`)).status).toBe(404);
    expect((await relayer.fetch('/tx/not-a-hash')).status).toBe(404);
  });

  it('answers its root with the explorer home, whose lookup leads to a transaction page', async () => {
    const home = await relayer.fetch('/');
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<form method="get" action="/tx">');
    expect(html).toContain('<label for="hash">Transaction hash</label>');
    const hash = randomHash();
    const lookup = await relayer.fetch(`/tx?hash=${hash.toUpperCase().replace('0X', '0x')}`, {
      redirect: 'manual',
    });
    expect(lookup.status).toBe(302);
    expect(lookup.headers.get('location')).toBe(`/tx/${hash.toLowerCase()}`);
    const wrong = await relayer.fetch('/tx?hash=nope');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('role="alert"');
  });
});

describe('a stuck anchor', () => {
  it('is replaced with higher fees and mined exactly once', async () => {
    const chain = await startDevChain();
    const { openDatabase } = await import('@xv/platform');
    const { tempDir } = await import('@xv/platform/testing');
    const database = await openDatabase({ service: 'chain', dataDir: tempDir() });
    const relayer = await startRelayer(database, {
      rpcUrl: chain.rpcUrl,
      env: { XV_CHAIN_STUCK_SECONDS: '1' },
    });
    await chain.rpc('evm_setAutomine', [false]);
    const hash = randomHash();
    const created = (await (
      await relayer.fetch('/api/anchors', {
        method: 'POST',
        headers: bearer(TEST_RELAYER_TOKEN),
        body: JSON.stringify({ hash }),
      })
    ).json()) as AnchorView;
    const bumped = await eventually(async () => {
      const view = (await (
        await relayer.fetch(`/api/anchors/${hash}`, { headers: bearer(TEST_RELAYER_TOKEN) })
      ).json()) as AnchorView;
      return view.attempts >= 2 ? view : undefined;
    });
    expect(bumped.txHash).not.toBe(created.txHash);
    expect(bumped.nonce).toBe(created.nonce);
    await chain.rpc('evm_mine');
    await chain.rpc('evm_setAutomine', [true]);
    const done = await eventually(async () => {
      const view = (await (
        await relayer.fetch(`/api/anchors/${hash}`, { headers: bearer(TEST_RELAYER_TOKEN) })
      ).json()) as AnchorView;
      return view.status === 'confirmed' ? view : undefined;
    });
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const block = await client.getBlock({
      blockNumber: BigInt(done.blockNumber!),
      includeTransactions: true,
    });
    const carrying = block.transactions.filter((tx) => tx.input === hash);
    expect(carrying).toHaveLength(1);
    expect(carrying[0]!.hash).toBe(done.txHash);
    expect(await client.getTransactionCount({ address: ANVIL_DEV_ADDRESS })).toBe(created.nonce + 1);
    await relayer.close();
    await database.close();
  });
});

describe('relayer settings', () => {
  it('refuses to start without a private key on a chain other than the local dev chain', async () => {
    const { spawnDevChain, isChainReady } = await import('@xv/cli');
    const { freePort, tempDir } = await import('@xv/platform/testing');
    const { openDatabase, SettingsError } = await import('@xv/platform');
    const { buildService } = await import('@xv/platform/service');
    const { chainService } = await import('@xv/chain');
    const port = await freePort();
    const child = spawnDevChain({ port, chainId: 1337 });
    try {
      await eventually(async () => ((await isChainReady(`http://127.0.0.1:${port}`)) ? true : undefined));
      const database = await openDatabase({ service: 'chain', dataDir: tempDir() });
      const attempt = buildService(chainService, {
        database,
        env: { XV_LOG_LEVEL: 'silent', XV_DATA_DIR: tempDir(), XV_CHAIN_RPC_URL: `http://127.0.0.1:${port}` },
      });
      await expect(attempt).rejects.toBeInstanceOf(SettingsError);
      await expect(attempt).rejects.toThrow(/XV_CHAIN_PRIVATE_KEY/);
      await database.close();
    } finally {
      child.kill('SIGKILL');
    }
  });
});
