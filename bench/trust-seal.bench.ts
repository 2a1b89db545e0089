/**
 * Seals per second end to end (HTTP, validation, hashing, both signatures and the
 * receipt insert into SQLite) against the raw signing ceiling measured in the same
 * process: canonicalise the claim, SHA-256, P-256 and secp256k1 signatures, the
 * exact code `POST /api/seal` runs. Demo mode, so no identity service is needed.
 */

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    'POST /api/seal seals/s (HTTP + SQLite) as a ratio of the raw signing ceiling in the same process',
  async run() {
    const service = await serveForBench(trustService, { XV_TRUST_DEMO: '1' });
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
      const sealed = await runLoad({ ...load, connections: 16, durationSeconds: 10 });
      const after = await signingCeiling(4);
      const ceiling = (before + after) / 2;
      return {
        signingCeilingPerSecond: round(ceiling),
        sealsPerSecond: round(sealed.requestsPerSecond),
        sealToSigningRatio: round(sealed.requestsPerSecond / ceiling),
        sealP50Ms: sealed.p50Ms,
        sealP99Ms: sealed.p99Ms,
        errors: sealed.errors + sealed.non2xx,
      };
    } finally {
      await service.close();
    }
  },
});
