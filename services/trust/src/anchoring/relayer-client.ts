/**
 * @module anchoring/relayer-client
 * The trust service's side of the chain relayer API, authenticated with the shared
 * service credential. The trust service holds no on-chain key.
 */
import { errors } from '../errors.js';

/**
 * An anchor as the relayer reports it for one fingerprint (`leaf`): `ref` is what the
 * transaction carries (the batch's Merkle root, or the fingerprint itself when anchored
 * alone) and `path` leads from `leaf` up to it.
 */
export interface RelayerAnchor {
  mode: 'onchain';
  ref: string;
  leaf: string;
  path: string[];
  txHash: string;
  explorerUrl: string;
  status: 'pending' | 'mined' | 'confirmed';
  chainId: number;
  from: string;
  nonce: number;
  blockNumber: number | null;
  confirmations: number;
}

export class RelayerClient {
  private known: { address: string; expires: number } | undefined;

  constructor(private readonly options: { url: string; token: string; timeoutMs?: number }) {}

  /** Anchors a 32-byte hash (0x + 64 hex) in a transaction of its own; the relayer answers with the existing anchor when there is one. */
  anchor(ref: string): Promise<RelayerAnchor> {
    return this.call('/api/anchors', { method: 'POST', body: JSON.stringify({ hash: ref }) });
  }

  /** Queues a 32-byte hash for the next batch; answers once the batch's transaction is sent. */
  batch(ref: string): Promise<RelayerAnchor> {
    return this.call('/api/batch', { method: 'POST', body: JSON.stringify({ hash: ref }) });
  }

  /** The relayer's address, which every anchoring transaction comes from (asked once a minute at most). */
  async address(): Promise<string> {
    if (this.known && this.known.expires > Date.now()) return this.known.address;
    const info = (await this.call('/api/relayer', { method: 'GET' })) as unknown as { address: string };
    this.known = { address: info.address, expires: Date.now() + 60_000 };
    return info.address;
  }

  /** The anchor's current transaction (it changes when a stuck one is replaced). */
  status(ref: string): Promise<RelayerAnchor> {
    return this.call(`/api/anchors/${ref}`, { method: 'GET' });
  }

  private async call(path: string, init: RequestInit): Promise<RelayerAnchor> {
    let response: Response;
    try {
      response = await fetch(`${this.options.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.options.token}`, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000),
      });
    } catch {
      throw errors.relayer_unavailable();
    }
    if (!response.ok) {
      const code = await response
        .json()
        .then((body: { error?: unknown }) => body.error)
        .catch(() => undefined);
      if (code === 'relayer_low_balance') throw errors.relayer_low_balance();
      throw errors.relayer_unavailable(`The chain relayer answered ${response.status}.`);
    }
    return (await response.json()) as RelayerAnchor;
  }
}
