/**
 * Killing the relayer in the middle of an anchor (a real child process, SIGKILL)
 * neither loses the anchor nor sends it twice: the signed transaction is stored
 * before it is broadcast, and a restarted relayer re-sends the same bytes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { type DevChain, startDevChain, TEST_RELAYER_TOKEN } from '@xv/chain/testing';
import { verifyInclusion } from '@xv/platform';
import { describeEachDatabase, freePort, tempDir } from '@xv/platform/testing';
import pg from 'pg';
import { createPublicClient, type Hex, http } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, eventually, randomHash } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const RELAYER_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

type ProxyMode = 'pass' | 'drop-send' | 'send-then-hang';

/** A JSON-RPC proxy in front of anvil that can swallow `eth_sendRawTransaction` (before or after passing it on). */
async function startRpcProxy(upstream: string) {
  const state = { mode: 'pass' as ProxyMode, sendsSeen: 0 };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const isSend = body.includes('eth_sendRawTransaction');
    if (isSend) state.sendsSeen++;
    if (isSend && state.mode === 'drop-send') return; // never answered
    const answer = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await answer.text();
    if (isSend && state.mode === 'send-then-hang') return;
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

describeEachDatabase('killing the relayer mid-anchor', (target) => {
  let chain: DevChain;
  let proxy: Awaited<ReturnType<typeof startRpcProxy>>;
  let databaseEnv: Record<string, string>;
  let child: ChildProcess | undefined;
  let relayerUrl: string;
  let dropDatabase: (() => Promise<void>) | undefined;

  async function startRelayerProcess() {
    const port = await freePort();
    relayerUrl = `http://127.0.0.1:${port}`;
    child = spawn(
      process.execPath,
      ['--conditions=xv-source', '--import', 'tsx', 'services/chain/src/main.ts'],
      {
        cwd: ROOT,
        stdio: 'ignore',
        env: {
          ...process.env,
          ...databaseEnv,
          XV_CHAIN_PORT: String(port),
          XV_CHAIN_URL: relayerUrl,
          XV_CHAIN_RPC_URL: proxy.url,
          XV_CHAIN_TOKEN: TEST_RELAYER_TOKEN,
          XV_CHAIN_POLL_MS: '100',
          XV_CHAIN_BATCH_INTERVAL_MS: '200',
          XV_LOG_LEVEL: 'silent',
        },
      },
    );
    await eventually(
      () =>
        fetch(`${relayerUrl}/readyz`)
          .then((r) => (r.ok ? true : undefined))
          .catch(() => undefined),
      60_000,
    );
  }

  function killRelayer() {
    const running = child!;
    return new Promise<void>((done) => {
      running.once('exit', () => done());
      running.kill('SIGKILL');
    });
  }

  const anchor = (hash: string) =>
    fetch(`${relayerUrl}/api/anchors`, {
      method: 'POST',
      headers: bearer(TEST_RELAYER_TOKEN),
      body: JSON.stringify({ hash }),
    });
  const batch = (hash: string) =>
    fetch(`${relayerUrl}/api/batch`, {
      method: 'POST',
      headers: bearer(TEST_RELAYER_TOKEN),
      body: JSON.stringify({ hash }),
    });
  const confirmed = (hash: string) =>
    eventually(async () => {
      const response = await fetch(`${relayerUrl}/api/anchors/${hash}`, {
        headers: bearer(TEST_RELAYER_TOKEN),
      });
      if (response.status !== 200) return undefined;
      const view = (await response.json()) as {
        status: string;
        txHash: Hex;
        nonce: number;
        ref: Hex;
        leaf: Hex;
        path: Hex[];
      };
      return view.status === 'confirmed' ? view : undefined;
    });

  /** Every transaction on the chain that carries `hash` as its calldata. */
  async function transactionsCarrying(hash: string) {
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const found: Hex[] = [];
    for (let n = 0n; n <= head; n++) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) if (tx.input === hash) found.push(tx.hash);
    }
    return found;
  }

  beforeAll(async () => {
    chain = await startDevChain();
    proxy = await startRpcProxy(chain.rpcUrl);
    if (target.dialect === 'postgres') {
      // The child process opens its own database; a fresh PostgreSQL database keeps it apart.
      const base = process.env.XV_TEST_DATABASE_URL!;
      const name = `xv_crash_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(base);
      url.pathname = `/${name}`;
      databaseEnv = { XV_CHAIN_DATABASE_URL: url.toString(), XV_DATA_DIR: tempDir() };
      dropDatabase = async () => {
        const cleanup = new pg.Client({ connectionString: base });
        await cleanup.connect();
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await cleanup.end();
      };
    } else {
      databaseEnv = { XV_DATA_DIR: tempDir() };
    }
    await startRelayerProcess();
  });

  afterAll(async () => {
    if (child && child.exitCode === null) await killRelayer();
    await proxy?.close();
    await dropDatabase?.();
  });

  it('re-sends an anchor that was recorded but never reached the node', async () => {
    const hash = randomHash();
    proxy.state.mode = 'drop-send';
    const seen = proxy.state.sendsSeen;
    const inFlight = anchor(hash).catch((error: Error) => error);
    await eventually(async () => (proxy.state.sendsSeen > seen ? true : undefined));
    await killRelayer();
    expect(await inFlight).toBeInstanceOf(Error);
    expect(await transactionsCarrying(hash)).toEqual([]);

    proxy.state.mode = 'pass';
    await startRelayerProcess();
    const done = await confirmed(hash);
    const again = await anchor(hash);
    expect(again.status).toBe(200);
    expect(((await again.json()) as { txHash: string }).txHash).toBe(done.txHash);
    expect(await transactionsCarrying(hash)).toEqual([done.txHash]);
  });

  it('a batch recorded but never broadcast before the kill is sent once after the restart, every fingerprint with its path', async () => {
    const hashes = [randomHash(), randomHash(), randomHash()];
    proxy.state.mode = 'drop-send';
    const seen = proxy.state.sendsSeen;
    const inFlight = hashes.map((hash) => batch(hash).catch((error: Error) => error));
    await eventually(async () => (proxy.state.sendsSeen > seen ? true : undefined));
    await killRelayer();
    for (const outcome of await Promise.all(inFlight)) expect(outcome).toBeInstanceOf(Error);

    proxy.state.mode = 'pass';
    await startRelayerProcess();
    const views = await Promise.all(hashes.map(confirmed));
    const roots = new Set(views.map((view) => view.ref));
    for (const view of views) expect(verifyInclusion(view.leaf, view.path, view.ref)).toBe(true);
    for (const root of roots) expect(await transactionsCarrying(root)).toHaveLength(1);
    // Asking again sends nothing new.
    const again = await batch(hashes[0]!);
    expect(((await again.json()) as { txHash: Hex }).txHash).toBe(views[0]!.txHash);
  });

  it('does not send twice an anchor the node took just before the kill', async () => {
    const hash = randomHash();
    proxy.state.mode = 'send-then-hang';
    const seen = proxy.state.sendsSeen;
    const inFlight = anchor(hash).catch((error: Error) => error);
    await eventually(async () => ((await transactionsCarrying(hash)).length > 0 ? true : undefined));
    expect(proxy.state.sendsSeen).toBeGreaterThan(seen);
    await killRelayer();
    expect(await inFlight).toBeInstanceOf(Error);

    proxy.state.mode = 'pass';
    await startRelayerProcess();
    const done = await confirmed(hash);
    expect((await anchor(hash)).status).toBe(200);
    expect(await transactionsCarrying(hash)).toEqual([done.txHash]);
    // Every nonce the relayer spent went to exactly one anchor.
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    expect(await client.getTransactionCount({ address: RELAYER_ADDRESS })).toBe(done.nonce + 1);
  });
});
