/**
 * Seals per second end to end (HTTP, validation, hashing, both signatures and the
 * receipt insert into SQLite) against the raw signing ceiling measured in the same
 * process: canonicalise the claim, SHA-256, P-256 and secp256k1 signatures, the exact
 * code `POST /api/seal` runs, called in a loop on one thread. The service runs as
 * configured by default: its event loop serves HTTP and the database while its signing
 * threads (XV_TRUST_SIGNING_THREADS: one per core, up to 4) sign, so the ratio compares
 * the whole service with one thread that only signs. The load generator is a child
 * process on the same machine. Five rounds of (ceiling, load) interleave the two
 * measurements; the figures are those of the median round, with the lowest and highest
 * ratio beside them. Demo mode, so no identity service is needed.
 */

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, newId, openDatabase } from '@xv/platform';
import { trustService } from '@xv/trust';
import { hashContent } from '../services/trust/src/crypto/canonical.js';
import type { TrustDb } from '../services/trust/src/db.js';
import { loadTrustKek } from '../services/trust/src/keys/kek.js';
import { Keyring } from '../services/trust/src/keys/keyring.js';
import { migrations } from '../services/trust/src/migrations/index.js';
import { CLAIM_TYPE, type Claim, signManifest } from '../services/trust/src/seal/manifest.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const BODY = JSON.stringify({
  modelId: 'bench-model',
  output: { answer: 'The quarterly revenue grew by 12%.', sources: ['doc_1', 'doc_2'] },
  input: { prompt: 'How did revenue develop?' },
});

/** A meter of the signing work alone: seals/s of that code in a loop on this thread, for `seconds`. */
async function signingMeter() {
  const dataDir = mkdtempSync(join(tmpdir(), 'xv-bench-trust-sign-'));
  const database = await openDatabase({ service: 'trust', dataDir });
  await migrate(database, migrations);
  const keyring = new Keyring(database.kysely as TrustDb, loadTrustKek(undefined, dataDir));
  const key = await keyring.signingKey({ orgId: 'org_demo', did: 'did:web:bench:demo' });
  const body = JSON.parse(BODY);
  return {
    async rate(seconds: number): Promise<number> {
      let count = 0;
      const started = performance.now();
      const deadline = started + seconds * 1000;
      while (performance.now() < deadline) {
        const claim: Claim = {
          type: CLAIM_TYPE,
          receiptId: newId('rcpt'),
          modelId: body.modelId,
          outputHash: hashContent(body.output),
          inputHash: hashContent(body.input),
          tier: 1,
          issuer: {
            orgId: 'org_demo',
            name: 'Demo',
            did: 'did:web:bench:demo',
            identityVerified: false,
            keyId: key.keyId,
            ethAddress: key.ethAddress,
          },
          authLevel: 'AAL1',
          issuedAt: new Date().toISOString(),
        };
        await signManifest(claim, key);
        count++;
      }
      return count / ((performance.now() - started) / 1000);
    },
    close: () => database.close(),
  };
}

/** Rounds of (ceiling, load); each round's ratio is against the ceilings measured just before and after it. */
const ROUNDS = 5;
const CEILING_SECONDS = 2;
const LOAD_SECONDS = 4;

const median = (values: number[]) => percentile(values, 50);

interface Round {
  seals: number;
  ceiling: number;
  ratio: number;
  /** Event loop utilisation during the load. */
  busy: number;
  p50: number;
  p99: number;
}

export default defineBenchmark({
  name: 'trust-seal',
  description:
    'POST /api/seal seals/s (HTTP + SQLite) as a ratio of the raw signing ceiling (the same code on one thread) in the same process',
  async run() {
    // What else the machine runs: the 1-minute load average before this benchmark adds to it.
    const loadBefore = loadavg()[0]!;
    const threads = process.env.XV_TRUST_SIGNING_THREADS; // to compare pool sizes
    const service = await serveForBench(trustService, {
      XV_TRUST_DEMO: '1',
      // One load generator is one client: lift its per-minute budget out of the measurement.
      XV_TRUST_SEAL_PER_MINUTE: '1000000000',
      ...(threads ? { XV_TRUST_SIGNING_THREADS: threads } : {}),
    });
    try {
      const load = {
        url: `${service.url}/api/seal`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
      };
      await runLoad({ ...load, connections: 8, durationSeconds: 2 }); // warm-up (keys, JIT)
      const meter = await signingMeter();
      // The machine may be shared: rounds interleave the ceiling and the load, so a burst of
      // other work weighs on both sides of one round's ratio; the median round is the figure.
      const ceilings = [await meter.rate(CEILING_SECONDS)];
      const rounds: Round[] = [];
      let errors = 0;
      for (let i = 0; i < ROUNDS; i++) {
        const idle = performance.eventLoopUtilization();
        const sealed = await runLoad({ ...load, connections: 16, durationSeconds: LOAD_SECONDS });
        const busy = performance.eventLoopUtilization(idle).utilization;
        ceilings.push(await meter.rate(CEILING_SECONDS));
        const ceiling = (ceilings[i]! + ceilings[i + 1]!) / 2;
        const seals = sealed.requestsPerSecond;
        rounds.push({ seals, ceiling, ratio: seals / ceiling, busy, p50: sealed.p50Ms, p99: sealed.p99Ms });
        errors += sealed.errors + sealed.non2xx;
      }
      await meter.close();
      const ratios = rounds.map((r) => r.ratio);
      const middle = rounds.find((r) => r.ratio === median(ratios))!;
      return {
        signingThreads: service.context.config.signingThreads,
        loadAverageBefore: round(loadBefore, 2),
        signingCeilingPerSecond: round(middle.ceiling),
        sealsPerSecond: round(middle.seals),
        sealToSigningRatio: round(middle.ratio),
        ratioLowest: round(Math.min(...ratios)),
        ratioHighest: round(Math.max(...ratios)),
        // Near 1, the event loop (HTTP, database) limits seals/s; well below, the signing threads do.
        eventLoopBusy: round(middle.busy, 2),
        sealP50Ms: middle.p50,
        sealP99Ms: middle.p99,
        errors,
      };
    } finally {
      await service.close();
    }
  },
});
