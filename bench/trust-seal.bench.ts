/**
 * Seals per second end to end (HTTP, validation, hashing, both signatures and the
 * receipt insert into SQLite) against the raw signing ceiling measured in the same
 * process: canonicalise the claim, SHA-256, P-256 and secp256k1 signatures, the exact
 * code `POST /api/seal` runs, called in a loop on one thread. The service runs as
 * configured by default: its event loop serves HTTP and the database while its signing
 * threads (XV_TRUST_SIGNING_THREADS: one per core, up to 4) sign, so the ratio compares
 * the whole service with one thread that only signs. The load generator is a child
 * process on the same machine. Demo mode, so no identity service is needed.
 */

import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, newId, openDatabase } from '@xv/platform';
import { trustService } from '@xv/trust';
import { hashContent } from '../services/trust/src/crypto/canonical.js';
import type { TrustDb } from '../services/trust/src/db.js';
import { KeyEncryptionKey } from '../services/trust/src/keys/kek.js';
import { Keyring } from '../services/trust/src/keys/keyring.js';
import { migrations } from '../services/trust/src/migrations/index.js';
import { CLAIM_TYPE, type Claim, signManifest } from '../services/trust/src/seal/manifest.js';
import { defineBenchmark, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

const BODY = JSON.stringify({
  modelId: 'bench-model',
  output: { answer: 'The quarterly revenue grew by 12%.', sources: ['doc_1', 'doc_2'] },
  input: { prompt: 'How did revenue develop?' },
});

/** Seals/s of the signing work alone, single-threaded, for `seconds`. */
async function signingCeiling(seconds: number): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'xv-bench-trust-sign-'));
  const database = await openDatabase({ service: 'trust', dataDir });
  await migrate(database, migrations);
  const keyring = new Keyring(database.kysely as TrustDb, KeyEncryptionKey.load(undefined, dataDir));
  const key = await keyring.signingKey({ orgId: 'org_demo', did: 'did:web:bench:demo' });
  const body = JSON.parse(BODY);
  let count = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
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
  const rate = count / ((performance.now() - started) / 1000);
  await database.close();
  return rate;
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
      // The machine may be shared: take the ceiling before and after the load and average them.
      const before = await signingCeiling(4);
      const idle = performance.eventLoopUtilization();
      const sealed = await runLoad({ ...load, connections: 16, durationSeconds: 10 });
      // Near 1, the event loop (HTTP, database) limits seals/s; well below, the signing threads do.
      const eventLoopBusy = performance.eventLoopUtilization(idle).utilization;
      const after = await signingCeiling(4);
      const ceiling = (before + after) / 2;
      return {
        signingThreads: service.context.config.signingThreads,
        loadAverageBefore: round(loadBefore, 2),
        signingCeilingPerSecond: round(ceiling),
        sealsPerSecond: round(sealed.requestsPerSecond),
        sealToSigningRatio: round(sealed.requestsPerSecond / ceiling),
        eventLoopBusy: round(eventLoopBusy, 2),
        sealP50Ms: sealed.p50Ms,
        sealP99Ms: sealed.p99Ms,
        errors: sealed.errors + sealed.non2xx,
      };
    } finally {
      await service.close();
    }
  },
});
