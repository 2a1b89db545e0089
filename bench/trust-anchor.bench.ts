/**
 * Anchors per second through the chain relayer to a local anvil chain: distinct
 * 32-byte hashes sent over the relayer's HTTP API by 16 concurrent clients, counted
 * when accepted (signed, stored, broadcast) and when confirmed on chain.
 */
import { randomBytes } from 'node:crypto';
import { defineBenchmark, round } from './lib/harness.js';
import { startBenchRelayer, untilConfirmed } from './lib/relayer.js';

const ANCHORS = 400;
const CONCURRENCY = 16;

export default defineBenchmark({
  name: 'trust-anchor',
  description: `anchors/s through the relayer to anvil (${ANCHORS} hashes, ${CONCURRENCY} concurrent clients)`,
  async run() {
    const relayer = await startBenchRelayer();
    const { headers } = relayer;
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
      await relayer.stop();
    }
  },
});
