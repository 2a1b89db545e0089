/**
 * Verifications per second: `POST /api/verify` (a proof checked against the key
 * set: RFC 8785, SHA-256, P-256 and secp256k1 signatures) over thousands of distinct
 * proofs sent round robin, so no per-proof cache could help, and
 * `GET /api/verify?receiptId=` (the same plus the receipt read), each against the
 * service's own `/healthz` in the same run. Every proof answer must be a 2xx saying
 * `valid: true`; anything else counts as an error. CPU per request is this process's
 * CPU (event loop and every thread) over the load window divided by the answers; the
 * load generator is a child process and is not counted. The signature checks run on
 * the service's signing threads (XV_TRUST_SIGNING_THREADS, to compare pool sizes).
 * Three rounds of (/healthz, proofs) interleave the two loads; the median round's
 * ratio is the figure, the lowest and highest beside it.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { trustService } from '@xv/trust';
import { defineBenchmark, percentile, round } from './lib/harness.js';
import { type LoadResult, runLoad } from './lib/load.js';
import { serveForBench } from './lib/services.js';

/** Distinct proofs sealed before the load. */
const PROOFS = 2000;
/** Seals in flight while the proofs are made. */
const SEALING_CONCURRENCY = 16;

/** Seals `count` distinct records and returns their `POST /api/verify` bodies and receipt ids. */
async function sealProofs(url: string, count: number) {
  const bodies: string[] = [];
  const receiptIds: string[] = [];
  let next = 0;
  const sealOne = async () => {
    while (next < count) {
      const n = next++;
      const sealed = await fetch(`${url}/api/seal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ modelId: 'bench-model', output: { answer: n, text: `result ${n}` } }),
      });
      if (sealed.status !== 200) throw new Error(`sealing answered ${sealed.status}`);
      const receipt = (await sealed.json()) as { receiptId: string; manifest: unknown };
      bodies.push(JSON.stringify({ proof: JSON.stringify(receipt.manifest) }));
      receiptIds.push(receipt.receiptId);
    }
  };
  await Promise.all(Array.from({ length: SEALING_CONCURRENCY }, sealOne));
  return { bodies, receiptIds };
}

/** CPU milliseconds per answered request. */
const cpuMsPer = (load: LoadResult) => round((load.cpuSeconds * 1000) / load.requests);

/**
 * Rounds of (/healthz, proofs): on a shared machine a burst of other work weighs on
 * both sides of one round's ratio; the median round gives the figures.
 */
const ROUNDS = 3;
const HEALTHZ_SECONDS = 3;
const PROOF_SECONDS = 5;

interface Round {
  healthz: LoadResult;
  proof: LoadResult;
  /** Event loop utilisation during the proof load. */
  proofBusy: number;
  ratio: number;
}

export default defineBenchmark({
  name: 'trust-verify',
  description:
    'POST /api/verify over distinct proofs and GET /api/verify?receiptId= verifications/s vs /healthz at 16 connections',
  goals: [
    {
      figure: 'proofToHealthzRatio',
      atLeast: 0.2,
      says: 'POST /api/verify vs /healthz, distinct proofs',
    },
    { figure: 'errors', atMost: 0, says: 'every verification answers 2xx, valid: true' },
  ],
  baselines: ['healthzRequestsPerSecond', 'healthzCpuMsPerRequest'],
  async run() {
    const loadBefore = loadavg()[0]!;
    const threads = process.env.XV_TRUST_SIGNING_THREADS;
    const service = await serveForBench(trustService, {
      XV_TRUST_DEMO: '1',
      // The proofs are sealed by one client: lift its per-minute budget.
      XV_TRUST_SEAL_PER_MINUTE: '1000000000',
      ...(threads ? { XV_TRUST_SIGNING_THREADS: threads } : {}),
    });
    try {
      const { bodies, receiptIds } = await sealProofs(service.url, PROOFS);
      const proofLoad = {
        url: `${service.url}/api/verify`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        bodies,
        expect: '"valid":true',
        connections: 16,
      };
      await runLoad({ ...proofLoad, connections: 8, durationSeconds: 2 }); // warm-up
      const rounds: Round[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const healthz = await runLoad({
          url: `${service.url}/healthz`,
          connections: 16,
          durationSeconds: HEALTHZ_SECONDS,
        });
        const idle = performance.eventLoopUtilization();
        const proof = await runLoad({ ...proofLoad, durationSeconds: PROOF_SECONDS });
        const proofBusy = performance.eventLoopUtilization(idle).utilization;
        const ratio = proof.requestsPerSecond / healthz.requestsPerSecond;
        rounds.push({ healthz, proof, proofBusy, ratio });
      }
      const ratios = rounds.map((r) => r.ratio);
      const { healthz, proof, proofBusy, ratio } = rounds.find((r) => r.ratio === percentile(ratios, 50))!;
      const byReceipt = await runLoad({
        url: `${service.url}/api/verify?receiptId=${receiptIds[0]}`,
        connections: 16,
        durationSeconds: 5,
      });
      return {
        loadAverageBefore: round(loadBefore, 2),
        signingThreads: service.context.config.signingThreads,
        distinctProofs: bodies.length,
        healthzRequestsPerSecond: round(healthz.requestsPerSecond),
        healthzCpuMsPerRequest: cpuMsPer(healthz),
        proofVerificationsPerSecond: round(proof.requestsPerSecond),
        proofCpuMsPerVerification: cpuMsPer(proof),
        proofP99Ms: proof.p99Ms,
        proofToHealthzRatio: round(ratio),
        ratioLowest: round(Math.min(...ratios)),
        ratioHighest: round(Math.max(...ratios)),
        // Near 1, the event loop limits verifications/s; well below, the signing threads (or the machine) do.
        proofEventLoopBusy: round(proofBusy, 2),
        receiptVerificationsPerSecond: round(byReceipt.requestsPerSecond),
        receiptP99Ms: byReceipt.p99Ms,
        errors:
          rounds.reduce((sum, r) => sum + r.proof.errors + r.proof.non2xx + r.proof.unexpected, 0) +
          byReceipt.errors +
          byReceipt.non2xx,
      };
    } finally {
      await service.close();
    }
  },
});
