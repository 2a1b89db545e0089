/**
 * @module lib/relayer
 * The chain relayer in benchmarks of anchoring: a fresh anvil chain with the relayer in front of it, and
 * waiting until anchors are confirmed.
 */
import { chainService } from '@xv/chain';
import { isChainReady, spawnDevChain } from '@xv/cli';
import { serveForBench } from './services.js';

const TOKEN = 'xvc_bench-relayer-token-0123456789abcdef';

/** Starts anvil on a random port and the relayer on it (`env` adds relayer settings); `stop` ends both. */
export async function startBenchRelayer(env: Record<string, string> = {}) {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const anvil = spawnDevChain({ port });
  const rpcUrl = `http://127.0.0.1:${port}`;
  while (!(await isChainReady(rpcUrl))) await new Promise((resolve) => setTimeout(resolve, 100));
  const relayer = await serveForBench(chainService, {
    XV_CHAIN_RPC_URL: rpcUrl,
    XV_CHAIN_TOKEN: TOKEN,
    XV_CHAIN_POLL_MS: '200',
    ...env,
  });
  return {
    url: relayer.url,
    rpcUrl,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    async stop() {
      await relayer.close();
      anvil.kill('SIGKILL');
    },
  };
}

/** Resolves once the relayer reports every one of `hashes` as confirmed on chain (polled every 200 ms). */
export async function untilConfirmed(relayerUrl: string, headers: Record<string, string>, hashes: string[]) {
  const pending = new Set(hashes);
  while (pending.size > 0) {
    for (const hash of [...pending]) {
      const response = await fetch(`${relayerUrl}/api/anchors/${hash}`, { headers });
      const view = (await response.json()) as { status: string };
      if (view.status === 'confirmed') pending.delete(hash);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
