/**
 * @module receipts/views
 * A receipt as it is stored (`receipts` row) and as it is handed out: the receipt
 * view, its anchor, and its proof file.
 */

import type { ReceiptsTable, TrustDb } from '../db.js';
import { errors } from '../errors.js';
import type { Issuer } from '../issuers/directory.js';
import type { Manifest } from '../seal/manifest.js';
import type { ManifestVerification } from '../seal/verify.js';

export interface SealRequest {
  issuer: Issuer;
  authLevel: string;
  modelId: string;
  output: unknown;
  input?: unknown;
  storeInput?: boolean;
  tier: number;
}

/**
 * A receipt's anchor (proof format, anchor version 2): `ref` is the receipt's
 * fingerprint, `root` what the transaction `txHash` carries, and `path` the Merkle path
 * from `ref` up to `root` (empty, with `root` = `ref`, when anchored alone). `notice`
 * says why an `anchorNow` was batched instead of immediate.
 */
export interface AnchorResult {
  mode: 'onchain';
  version: 2;
  txHash: string;
  ref: string;
  explorerUrl: string;
  root: string;
  path: string[];
  notice?: 'anchor_budget_exhausted';
}

/** A receipt's anchor; `error` says why an `anchorNow` did not happen. */
export type AnchorView = AnchorResult | { mode: 'none'; error?: string };

/** Immediate: a transaction of its own, from the organization's budget; batch: the next batch. */
export type AnchorMode = 'immediate' | 'batch';

export interface ReceiptView {
  receiptId: string;
  outputHash: string;
  inputHash?: string;
  manifestHash: string;
  issuerId: string;
  issuerName: string;
  identityVerified: boolean;
  authLevel: string;
  tier: number;
  modelId: string;
  issuedAt: string;
  keyId: string;
  p256Sig: string;
  ethSig: string;
  anchor: AnchorView;
  manifest: Manifest;
  verifyUrl: string;
  proofUrl: string;
}

/** What the chain says of a receipt's anchor. */
export interface AnchorEvidence {
  onChain: boolean;
  txHash: string | null;
  mode: 'onchain' | 'none';
  explorerUrl?: string;
  root?: string;
  path?: string[];
  blockNumber?: number | null;
  confirmations?: number;
  problem?: string;
}

export interface ReceiptVerification extends ManifestVerification {
  receiptId: string;
  issuer: ManifestVerification['issuer'] & { orgName: string; verified: boolean };
  anchor: AnchorEvidence;
}

/** The 0x form of a manifest hash: the 32 bytes anchored on chain. */
export const anchorRef = (manifestHash: string) => `0x${manifestHash.slice('sha256-'.length)}`;

export async function findReceipt(db: TrustDb, receiptId: string): Promise<ReceiptsTable> {
  const row = await db
    .selectFrom('receipts')
    .selectAll()
    .where('receipt_id', '=', receiptId)
    .executeTakeFirst();
  if (!row) throw errors.receipt_not_found();
  return row;
}

export function receiptView(row: ReceiptsTable, manifest: Manifest, trustUrl: string): ReceiptView {
  return {
    receiptId: row.receipt_id,
    outputHash: row.output_hash,
    ...(row.input_hash ? { inputHash: row.input_hash } : {}),
    manifestHash: row.manifest_hash,
    issuerId: row.org_id,
    issuerName: row.issuer_name,
    identityVerified: row.identity_verified === 1,
    authLevel: row.auth_level,
    tier: row.tier,
    modelId: row.model_id,
    issuedAt: manifest.claim.issuedAt,
    keyId: row.key_id,
    p256Sig: manifest.signatures.p256Sig,
    ethSig: manifest.signatures.ethSig,
    anchor: anchorOf(row),
    manifest,
    verifyUrl: `${trustUrl}/verify/${row.receipt_id}`,
    proofUrl: `${trustUrl}/api/receipts/${row.receipt_id}/proof`,
  };
}

/** The proof file of a receipt: its manifest, and its anchor once it has one. */
export function proofOf(row: ReceiptsTable): Record<string, unknown> {
  // Stored with JSON.stringify, so parsing and serialising again gives the same bytes.
  const manifest = JSON.parse(row.manifest) as Record<string, unknown>;
  const anchor = anchorOf(row);
  if (anchor.mode !== 'onchain') return manifest;
  const { version, ref, root, path, txHash, explorerUrl } = anchor;
  return {
    ...manifest,
    anchor: { version, ref, root, path, txHash, explorerUrl, chainId: row.anchor_chain_id },
  };
}

export function anchorOf(row: ReceiptsTable): AnchorView {
  if (!row.anchor_ref || !row.anchor_tx_hash) return { mode: 'none' };
  return {
    mode: 'onchain',
    version: 2,
    txHash: row.anchor_tx_hash,
    ref: row.anchor_ref,
    explorerUrl: row.anchor_explorer_url ?? '',
    root: row.anchor_root ?? row.anchor_ref,
    path: parsePath(row.anchor_path) ?? [],
  };
}

/** A stored path: a JSON array of strings (null, before batching, is the empty path); anything else is unusable. */
export function parsePath(stored: string | null): string[] | undefined {
  if (stored === null) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) && value.every((node) => typeof node === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}
