/**
 * @module lib/relayer
 * Waiting on the chain relayer in benchmarks of anchoring.
 */

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
