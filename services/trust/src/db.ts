/**
 * @module db
 * The trust service's tables, as Kysely sees them.
 */
import type { Kysely } from 'kysely';

export interface IssuerKeysTable {
  key_id: string;
  org_id: string;
  /** The organization's DID when the key was made (published in the key set). */
  did: string;
  status: 'active' | 'retired';
  p256_jwk: string;
  /** AES-256-GCM under the key-encryption key: PKCS#8 DER of the P-256 private key. */
  p256_private: string;
  /** AES-256-GCM under the key-encryption key: the 32-byte secp256k1 private key. */
  secp256k1_private: string;
  eth_address: string;
  created_at: number;
  retired_at: number | null;
}

export interface ReceiptsTable {
  receipt_id: string;
  org_id: string;
  key_id: string;
  issuer_name: string;
  identity_verified: number;
  auth_level: string;
  model_id: string;
  tier: number;
  output_hash: string;
  input_hash: string | null;
  /** Only when the caller opted in with `storeInput`. */
  input_json: string | null;
  manifest_hash: string;
  manifest: string;
  created_at: number;
  anchor_ref: string | null;
  anchor_tx_hash: string | null;
  anchor_explorer_url: string | null;
  anchor_from: string | null;
  anchor_chain_id: number | null;
  anchored_at: number | null;
  /** The Merkle root the anchoring transaction carries; null: the fingerprint itself. */
  anchor_root: string | null;
  /** JSON array of sibling hashes from the fingerprint up to `anchor_root`. */
  anchor_path: string | null;
}

/** Immediate anchors an organization spent on one UTC day (`YYYY-MM-DD`). */
export interface AnchorBudgetTable {
  org_id: string;
  day: string;
  used: number;
}

export interface AttestationsTable {
  attestation_id: string;
  org_id: string;
  key_id: string;
  schema: string;
  subject: string;
  digest: string;
  uid: string;
  attester: string;
  signed: string;
  /** JSON of the on-chain attestation, when one was made. */
  onchain: string | null;
  created_at: number;
}

export interface TrustTables {
  issuer_keys: IssuerKeysTable;
  receipts: ReceiptsTable;
  attestations: AttestationsTable;
  anchor_budget: AnchorBudgetTable;
}

export type TrustDb = Kysely<TrustTables>;
