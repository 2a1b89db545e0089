/**
 * @module relayer/tables
 * The relayer's tables and the shape of an anchor as the API reports it.
 */

export type AnchorStatus = 'pending' | 'mined' | 'confirmed';

export interface AnchorsTable {
  ref: string;
  chain_id: number;
  from_address: string;
  nonce: number;
  tx_hash: string;
  status: AnchorStatus;
  block_number: number | null;
  confirmations: number;
  attempts: number;
  last_sent_at: number;
  created_at: number;
  updated_at: number;
}

export interface AnchorAttemptsTable {
  tx_hash: string;
  ref: string;
  nonce: number;
  raw_tx: string;
  max_fee_per_gas: string;
  max_priority_fee_per_gas: string;
  created_at: number;
}

export interface RelayerNoncesTable {
  address: string;
  chain_id: number;
  next_nonce: number;
}

/** A fingerprint queued for a batched anchor; pending while `root` is null. */
export interface BatchLeavesTable {
  fingerprint: string;
  chain_id: number;
  root: string | null;
  /** JSON array of 0x sibling hashes from the leaf up to `root`. */
  path: string | null;
  queued_at: number;
  batched_at: number | null;
}

export interface ChainTables {
  anchors: AnchorsTable;
  batch_leaves: BatchLeavesTable;
  anchor_attempts: AnchorAttemptsTable;
  relayer_nonces: RelayerNoncesTable;
}

export type AnchorRow = AnchorsTable;
