/**
 * @module @xv/chain/testing
 * Test helpers: a throw-away anvil chain on a free port, and the relayer started on
 * it. Both are stopped when the test file ends.
 */
import type { ChildProcess } from 'node:child_process';
import { isChainReady, spawnDevChain } from '@xv/cli';
import type { AnyDatabase } from '@xv/platform';
import { freePort, type RunningService, startService } from '@xv/platform/testing';
import { afterAll } from 'vitest';
import { chainService } from '../service.js';

export interface DevChain {
  rpcUrl: string;
  port: number;
  process: ChildProcess;
  /** One JSON-RPC call, for tests that steer the chain (`evm_setAutomine`, `evm_mine`, …). */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  stop(): Promise<void>;
}

const chains: DevChain[] = [];
afterAll(async () => {
  for (const chain of chains.splice(0)) await chain.stop();
});

/** A throw-away chain (id 31337 unless told); with `stateDir`, one whose state survives a restart on the same folder. */
export async function startDevChain(
  options: { stateDir?: string; chainId?: number } = {},
): Promise<DevChain> {
  const port = await freePort();
  const child = spawnDevChain({ port, ...options });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (!(await isChainReady(rpcUrl))) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('anvil did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let id = 0;
  const chain: DevChain = {
    rpcUrl,
    port,
    process: child,
    async rpc<T>(method: string, params: unknown[] = []) {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      });
      const body = (await response.json()) as { result?: T; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result as T;
    },
    // SIGTERM: anvil writes its state file on the way out.
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(options.stateDir ? 'SIGTERM' : 'SIGKILL');
      }),
  };
  chains.push(chain);
  return chain;
}

export const TEST_RELAYER_TOKEN = 'xvc_test-relayer-token-0123456789abcdef';

/** The relayer on `rpcUrl`, polling and batching fast so tests see anchors and confirmations quickly. */
export function startRelayer(
  database: AnyDatabase,
  options: { rpcUrl: string; env?: Record<string, string | undefined> },
): Promise<RunningService> {
  return startService(chainService, {
    database,
    env: {
      XV_CHAIN_RPC_URL: options.rpcUrl,
      XV_CHAIN_TOKEN: TEST_RELAYER_TOKEN,
      XV_CHAIN_POLL_MS: '100',
      XV_CHAIN_BATCH_INTERVAL_MS: '200',
      ...options.env,
    },
  });
}
