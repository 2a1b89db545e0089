/**
 * Verifications per second: `POST /api/verify` (a proof checked against the key
 * set: RFC 8785, SHA-256, P-256 verify, secp256k1 recovery) and
 * `GET /api/verify?receiptId=` (the same plus the receipt read), each against the
 * service's own `/healthz` in the same run.
 */
import { trustService } from '@xv/trust';
import { defineBenchmark, round } from './lib/harness.js';
import { runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

export default defineBenchmark({
  name: 'trust-verify',
  description:
    'POST /api/verify and GET /api/verify?receiptId= verifications/s vs /healthz at 16 connections',
  async run() {
    const service = await serveForBench(trustService, { XV_TRUST_DEMO: '1' });
    try {
      const sealed = await fetch(`${service.url}/api/seal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ modelId: 'bench-model', output: { answer: 42 } }),
      });
      const receipt = (await sealed.json()) as { receiptId: string; manifest: unknown };
      const proofLoad = {
        url: `${service.url}/api/verify`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ proof: JSON.stringify(receipt.manifest) }),
      };
      await runLoad({ ...proofLoad, connections: 8, durationSeconds: 2 }); // warm-up
      const healthz = await runLoad({ url: `${service.url}/healthz`, connections: 16, durationSeconds: 5 });
      const proof = await runLoad({ ...proofLoad, connections: 16, durationSeconds: 8 });
      const byReceipt = await runLoad({
        url: `${service.url}/api/verify?receiptId=${receipt.receiptId}`,
        connections: 16,
        durationSeconds: 8,
      });
      return {
        healthzRequestsPerSecond: round(healthz.requestsPerSecond),
        proofVerificationsPerSecond: round(proof.requestsPerSecond),
        proofP99Ms: proof.p99Ms,
        proofToHealthzRatio: round(proof.requestsPerSecond / healthz.requestsPerSecond),
        receiptVerificationsPerSecond: round(byReceipt.requestsPerSecond),
        receiptP99Ms: byReceipt.p99Ms,
        errors: proof.errors + proof.non2xx + byReceipt.errors + byReceipt.non2xx,
      };
    } finally {
      await service.close();
    }
  },
});
