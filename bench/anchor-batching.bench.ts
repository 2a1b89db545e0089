/**
 * What batching saves: the same number of distinct fingerprints anchored through the
 * relayer to a local anvil chain, first one transaction per fingerprint
 * (`POST /api/anchors`, the baseline), then batched (`POST /api/batch`, the Merkle root
 * of each batch in one transaction), by the same concurrent clients in the same
 * process. It prints transactions, anchors per transaction, and fingerprints per
 * second answered (transaction sent) and confirmed, with the batched/baseline ratios.
 */
import { randomBytes } from 'node:crypto';
import { createPublicClient, type Hex, http } from 'viem';
import { defineBenchmark, round } from './lib/harness.js';
import { startBenchRelayer, untilConfirmed } from './lib/relayer.js';

const FINGERPRINTS = 600;
const CONCURRENCY = 200;
const INTERVAL_MS = 2000;

export default defineBenchmark({
  name: 'anchor-batching',
  description: `${FINGERPRINTS} fingerprints by ${CONCURRENCY} concurrent clients: one transaction each vs batched every ${INTERVAL_MS} ms`,
  async run() {
    const relayer = await startBenchRelayer({ XV_CHAIN_BATCH_INTERVAL_MS: String(INTERVAL_MS) });
    const { headers, rpcUrl } = relayer;
    const client = createPublicClient({ transport: http(rpcUrl) });
    const { address } = (await (await fetch(`${relayer.url}/api/relayer`)).json()) as { address: Hex };
    const sent = () => client.getTransactionCount({ address, blockTag: 'pending' });

    /** Anchors fresh fingerprints through `path`; answered = every request has its transaction sent. */
    async function round_(path: '/api/anchors' | '/api/batch') {
      const hashes = Array.from({ length: FINGERPRINTS }, () => `0x${randomBytes(32).toString('hex')}`);
      const before = await sent();
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < hashes.length) {
            const hash = hashes[next++]!;
            const response = await fetch(`${relayer.url}${path}`, {
              method: 'POST',
              headers,
              body: JSON.stringify({ hash }),
            });
            if (!response.ok) throw new Error(`${path} answered ${response.status}`);
            await response.arrayBuffer();
          }
        }),
      );
      const answered = performance.now();
      await untilConfirmed(relayer.url, headers, hashes);
      const confirmed = performance.now();
      const transactions = (await sent()) - before;
      return {
        transactions,
        answeredPerSecond: FINGERPRINTS / ((answered - started) / 1000),
        confirmedPerSecond: FINGERPRINTS / ((confirmed - started) / 1000),
      };
    }

    try {
      const single = await round_('/api/anchors');
      const batched = await round_('/api/batch');
      return {
        fingerprints: FINGERPRINTS,
        singleTransactions: single.transactions,
        batchedTransactions: batched.transactions,
        anchorsPerTransaction: round(FINGERPRINTS / batched.transactions),
        singleAnsweredPerSecond: round(single.answeredPerSecond),
        batchedAnsweredPerSecond: round(batched.answeredPerSecond),
        singleConfirmedPerSecond: round(single.confirmedPerSecond),
        batchedConfirmedPerSecond: round(batched.confirmedPerSecond),
        transactionRatio: round(batched.transactions / single.transactions),
        confirmedRatio: round(batched.confirmedPerSecond / single.confirmedPerSecond),
      };
    } finally {
      await relayer.stop();
    }
  },
});
