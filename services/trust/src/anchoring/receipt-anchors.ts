/**
 * @module anchoring/receipt-anchors
 * Anchoring receipts through the relayer, and what the chain says of an anchor:
 * a receipt's stored one, a proof file's, or a bare transaction and root.
 */
import { AppError, verifyInclusion } from '@xv/platform';
import type { ReceiptsTable, TrustDb } from '../db.js';
import {
  type AnchorEvidence,
  type AnchorMode,
  type AnchorResult,
  type AnchorView,
  anchorOf,
  anchorRef,
  findReceipt,
  parsePath,
} from '../receipts/views.js';
import type { AnchorBudget } from './budget.js';
import type { ChainReader } from './chain-check.js';
import { type AnchorCheck, checkProofAnchor, type ProofAnchor } from './inclusion.js';
import type { RelayerAnchor, RelayerClient } from './relayer-client.js';

export interface ReceiptAnchorsOptions {
  db: TrustDb;
  relayer: RelayerClient;
  budget: AnchorBudget;
  chain: ChainReader;
}

const notIncluded = { onChain: false, blockNumber: null, confirmations: 0, problem: 'wrong_path' } as const;

export class ReceiptAnchors {
  constructor(private readonly o: ReceiptAnchorsOptions) {}

  /**
   * Anchors the receipt's manifest hash through the relayer: in the next batch, or
   * (`immediate`) in a transaction of its own paid from the organization's daily budget.
   * Idempotent: an anchored receipt gets its anchor back without spending anything, and
   * the relayer keeps one anchor per hash, so asking again while it is queued (or after a
   * crash on either side) returns the same transaction.
   */
  async anchor(receiptId: string, mode: AnchorMode = 'batch'): Promise<AnchorResult> {
    const row = await findReceipt(this.o.db, receiptId);
    const known = anchorOf(row);
    if (known.mode === 'onchain') return known;
    const ref = anchorRef(row.manifest_hash);
    let anchored: RelayerAnchor;
    if (mode === 'immediate') {
      await this.o.budget.spend(row.org_id);
      try {
        anchored = await this.o.relayer.anchor(ref);
      } catch (error) {
        await this.o.budget.refund(row.org_id);
        throw error;
      }
      // It was already queued by someone else: it went out in their batch, at no cost to this budget.
      if (anchored.path.length > 0) await this.o.budget.refund(row.org_id);
    } else {
      anchored = await this.o.relayer.batch(ref);
    }
    await this.remember(row, anchored);
    return {
      mode: 'onchain',
      version: 2,
      txHash: anchored.txHash,
      ref,
      explorerUrl: anchored.explorerUrl,
      root: anchored.ref,
      path: anchored.path,
    };
  }

  /**
   * `anchorNow` on a seal: immediate while the organization's budget lasts, then the
   * next batch with a `notice`; the seal stands even when the relayer cannot anchor.
   */
  async anchorNow(receiptId: string, mode: AnchorMode): Promise<AnchorView> {
    try {
      return await this.anchor(receiptId, mode);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code !== 'anchor_budget_exhausted') return { mode: 'none', error: error.code };
    }
    try {
      return { ...(await this.anchor(receiptId, 'batch')), notice: 'anchor_budget_exhausted' };
    } catch (error) {
      if (error instanceof AppError) return { mode: 'none', error: error.code };
      throw error;
    }
  }

  /** Whether the chain holds a transaction `txHash` from the relayer carrying `root`. */
  async checkRoot(txHash: string, root: string) {
    const relayer = await this.o.relayer.address().catch(() => undefined);
    if (!relayer)
      return { onChain: false, blockNumber: null, confirmations: 0, problem: 'chain_unreachable' as const };
    return this.o.chain.confirm(txHash, { ref: root, from: relayer });
  }

  /** A proof file's anchor, for the proof whose fingerprint is `fingerprint`. */
  async checkProof(anchor: ProofAnchor, fingerprint: string): Promise<AnchorCheck> {
    const relayer = await this.o.relayer.address().catch(() => undefined);
    return checkProofAnchor(anchor, fingerprint, this.o.chain, relayer);
  }

  /** What the chain says of a receipt's stored anchor (following a replaced transaction). */
  async evidence(row: ReceiptsTable): Promise<AnchorEvidence> {
    if (!row.anchor_ref || !row.anchor_tx_hash || !row.anchor_from)
      return { onChain: false, txHash: null, mode: 'none' };
    // An anchor stored before batching has no root: its transaction carries the fingerprint.
    const root = row.anchor_root ?? row.anchor_ref;
    const path = parsePath(row.anchor_path);
    // A stuck transaction may have been replaced since: ask the relayer which one is current.
    let txHash = row.anchor_tx_hash;
    let explorerUrl = row.anchor_explorer_url ?? undefined;
    const stated = { mode: 'onchain' as const, root, path: path ?? [] };
    // The fingerprint must lead to the root the transaction is checked for.
    if (!path || !verifyInclusion(row.anchor_ref, path, root))
      return { ...stated, txHash, ...(explorerUrl ? { explorerUrl } : {}), ...notIncluded };
    const latest = await this.o.relayer.status(root).catch(() => null);
    if (latest && latest.ref === root && latest.txHash !== txHash) {
      await this.o.db
        .updateTable('receipts')
        .set({ anchor_tx_hash: latest.txHash, anchor_explorer_url: latest.explorerUrl })
        .where('receipt_id', '=', row.receipt_id)
        .execute();
      txHash = latest.txHash;
      explorerUrl = latest.explorerUrl;
    }
    const evidence = await this.o.chain.confirm(txHash, { ref: root, from: row.anchor_from });
    return { ...stated, txHash, ...(explorerUrl ? { explorerUrl } : {}), ...evidence };
  }

  private async remember(row: ReceiptsTable, anchored: RelayerAnchor) {
    await this.o.db
      .updateTable('receipts')
      .set({
        anchor_ref: anchorRef(row.manifest_hash),
        anchor_root: anchored.ref,
        anchor_path: JSON.stringify(anchored.path),
        anchor_tx_hash: anchored.txHash,
        anchor_explorer_url: anchored.explorerUrl,
        anchor_from: anchored.from,
        anchor_chain_id: anchored.chainId,
        anchored_at: row.anchored_at ?? Date.now(),
      })
      .where('receipt_id', '=', row.receipt_id)
      .execute();
  }
}
