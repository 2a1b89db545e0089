/**
 * @module anchoring/relayer-client
 * The trust service's side of the chain relayer API, authenticated with the shared
 * service credential: anchors, and the EAS contracts (their addresses, schema
 * registration, delegated attestations). The trust service holds no on-chain key.
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

export interface EasDeployment {
  chainId: number;
  eas: string;
  schemaRegistry: string;
  version: string;
}

export interface RelayedAttestation {
  uid: string;
  txHash: string;
  blockNumber: number;
  attester: string;
  chainId: number;
  eas: string;
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
    const info = await this.call<{ address: string }>('/api/relayer', { method: 'GET' });
    this.known = { address: info.address, expires: Date.now() + 60_000 };
    return info.address;
  }

  /** The EAS contracts on the relayer's chain. */
  easDeployment(): Promise<EasDeployment> {
    return this.call('/api/eas', { method: 'GET' });
  }

  /** Registers a schema in the SchemaRegistry; idempotent. */
  registerSchema(schema: string, revocable: boolean): Promise<{ uid: string; txHash: string | null }> {
    return this.call('/api/eas/schemas', { method: 'POST', body: JSON.stringify({ schema, revocable }) });
  }

  /** Submits an attestation its attester signed (EAS `attestByDelegation`); answers once mined. */
  attestByDelegation(request: Record<string, unknown>): Promise<RelayedAttestation> {
    return this.call('/api/eas/attestations', { method: 'POST', body: JSON.stringify(request) });
  }

  /** The anchor's current transaction (it changes when a stuck one is replaced). */
  status(ref: string): Promise<RelayerAnchor> {
    return this.call(`/api/anchors/${ref}`, { method: 'GET' });
  }

  private async call<T = RelayerAnchor>(path: string, init: RequestInit): Promise<T> {
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
      const body = (await response.json().catch(() => ({}))) as { error?: unknown; message?: unknown };
      if (body.error === 'relayer_low_balance') throw errors.relayer_low_balance();
      if (body.error === 'eas_not_configured') throw errors.eas_unavailable();
      if (body.error === 'eas_call_rejected')
        throw errors.onchain_attestation_rejected(
          typeof body.message === 'string' ? body.message : undefined,
        );
      throw errors.relayer_unavailable(`The chain relayer answered ${response.status}.`);
    }
    return (await response.json()) as T;
  }
}
