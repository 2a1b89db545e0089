/**
 * Anchors per second through the chain relayer to a local anvil chain: distinct
 * 32-byte hashes sent over the relayer's HTTP API by 16 concurrent clients, counted
 * when accepted (signed, stored, broadcast) and when confirmed on chain.
 */
import { randomBytes } from 'node:crypto';
import { chainService } from '@xv/chain';
import { isChainReady, spawnDevChain } from '@xv/cli';
import { defineBenchmark, round } from './lib/harness.js';
import { untilConfirmed } from './lib/relayer.js';
import { serveForBench } from './lib/services.js';

const ANCHORS = 400;
const CONCURRENCY = 16;
const TOKEN = 'xvc_bench-relayer-token-0123456789abcdef';

export default defineBenchmark({
  name: 'trust-anchor',
  description: `anchors/s through the relayer to anvil (${ANCHORS} hashes, ${CONCURRENCY} concurrent clients)`,
  async run() {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const anvil = spawnDevChain({ port });
    const rpcUrl = `http://127.0.0.1:${port}`;
    while (!(await isChainReady(rpcUrl))) await new Promise((resolve) => setTimeout(resolve, 100));
    const relayer = await serveForBench(chainService, {
      XV_CHAIN_RPC_URL: rpcUrl,
      XV_CHAIN_TOKEN: TOKEN,
      XV_CHAIN_POLL_MS: '200',
    });
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    try {
      const hashes = Array.from({ length: ANCHORS }, () => `0x${randomBytes(32).toString('hex')}`);
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < hashes.length) {
            const hash = hashes[next++]!;
            const response = await fetch(`${relayer.url}/api/anchors`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ hash }),
            });
            if (response.status !== 201) throw new Error(`anchor answered ${response.status}`);
            await response.arrayBuffer();
          }
        }),
      );
      const accepted = performance.now();
      await untilConfirmed(relayer.url, headers, hashes);
      const confirmed = performance.now();
      return {
        anchors: ANCHORS,
        acceptedPerSecond: round(ANCHORS / ((accepted - started) / 1000)),
        confirmedPerSecond: round(ANCHORS / ((confirmed - started) / 1000)),
        secondsToConfirmAll: round((confirmed - started) / 1000),
      };
    } finally {
      await relayer.close();
      anvil.kill('SIGKILL');
    }
  },
});
