/**
 * @module relayer/relayer
 * Anchoring 32-byte hashes on an EVM chain, exactly once each. The relayer puts
 * together its parts:
 * - `sending.ts`: signing an anchor transaction, storing it, broadcasting it;
 * - `nonces.ts`: nonces handed out one at a time (across instances too);
 * - `batching.ts`: the queue of fingerprints anchored together as one Merkle root;
 * - `recovery.ts`: the poller that re-sends, replaces and confirms;
 * - `funds.ts`: the balance floor below which nothing new is signed.
 *
 * An anchor's life:
 * 1. In one database transaction the hash gets the next nonce for good, and the
 *    signed transaction is stored before anything is sent (write-ahead). A second
 *    request for the same hash finds that row and gets the same answer.
 * 2. The signed bytes are broadcast. If the process dies before or during that,
 *    the poller (at start-up and every `pollMs`) finds the row and sends the same
 *    bytes again: same nonce, same transaction hash, so nothing is lost or doubled.
 * 3. The poller reads receipts, counts confirmations, re-sends, replaces stuck
 *    transactions and re-nonces anchors whose nonce went elsewhere.
 *
 * Several instances may share the key and one PostgreSQL database: a nonce is only
 * handed out under a row lock on `relayer_nonces`, and whoever gets the lock first
 * looks again for the hash (or the re-send) another instance may have just committed.
 *
 * Below `minBalanceWei` the relayer signs nothing new (re-sends and fee bumps of
 * transactions already signed go on): immediate anchors are refused with
 * `relayer_low_balance`, queued fingerprints stay queued until it is funded again.
 */
import { type Database, type Logger, transaction } from '@xv/platform';
import type { Hex } from 'viem';
import { type AnchorOutcome, Batches } from './batching.js';
import { ContractCalls } from './contract-calls.js';
import { Funds } from './funds.js';
import { Nonces } from './nonces.js';
import { Recovery } from './recovery.js';
import { Sender } from './sending.js';
import type { AnchorRow, ChainTables } from './tables.js';
import type { RelayerWallet } from './wallet.js';

export type { AnchorOutcome } from './batching.js';

export interface RelayerOptions {
  confirmations: number;
  pollMs: number;
  stuckSeconds: number;
  feeBumpPercent: number;
  batchIntervalMs: number;
  batchMax: number;
  minBalanceWei: bigint;
}

export interface RelayerStatus {
  status: 'ok' | 'relayer_low_balance';
  balanceWei: string;
  minBalanceWei: string;
  /** Fingerprints waiting for a batch. */
  queued: number;
}

export class Relayer {
  private readonly nonces: Nonces;
  private readonly sender: Sender;
  private readonly funds: Funds;
  private readonly batches: Batches;
  private readonly recovery: Recovery;
  /** Contract calls (EAS) signed with the relayer key, in the same nonce sequence. */
  readonly calls: ContractCalls;
  private timer: NodeJS.Timeout | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  readonly address: Hex;
  readonly chainId: number;

  constructor(
    private readonly database: Database<ChainTables>,
    readonly wallet: RelayerWallet,
    private readonly options: RelayerOptions,
    logger: Logger,
  ) {
    this.address = wallet.account.address;
    this.chainId = wallet.chainId;
    this.nonces = new Nonces(database, wallet);
    this.sender = new Sender(database.kysely, wallet, logger);
    this.funds = new Funds(wallet, options.minBalanceWei, logger);
    const parts = { nonces: this.nonces, sender: this.sender, funds: this.funds };
    this.batches = new Batches(database, parts, options, logger);
    this.recovery = new Recovery(database, parts, options, logger);
    this.calls = new ContractCalls(database, parts);
  }

  /** Brings the nonce in line with the chain, re-sends what a previous run left unsent, then polls. */
  async start(): Promise<void> {
    await this.nonces.sync();
    await this.recovery.poll();
    this.timer = setInterval(() => void this.recovery.poll(), this.options.pollMs);
    this.timer.unref();
    this.batchTimer = setInterval(() => void this.batches.flush(), this.options.batchIntervalMs);
    this.batchTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.batchTimer);
    await this.recovery.settled();
    await this.batches.settled();
    await this.nonces.idle();
  }

  /**
   * Anchors `hash` (0x + 64 hex, lowercase) in a transaction of its own, or returns the
   * anchor it already has (its batch's, when it was queued).
   */
  async anchor(hash: Hex): Promise<AnchorOutcome> {
    const { sender, nonces } = this;
    const alone = (anchor: AnchorRow, created: boolean) => ({ anchor, created, leaf: hash, path: [] });
    if (await this.batches.leaf(hash)) return this.batches.awaitBatch(hash);
    const existing = await sender.find(hash);
    if (existing) return alone(existing, false);
    await this.funds.require();
    return nonces.exclusive(async () => {
      const again = await sender.find(hash);
      if (again) return alone(again, false);
      const fees = await sender.currentFees();
      const now = Date.now();
      const outcome = await transaction(this.database, async (db) => {
        // Waits for any other relayer instance that is handing out a nonce; if it was
        // anchoring this very hash, its anchor is committed by now and stands.
        await nonces.lock(db);
        const raced = await sender.find(hash, db);
        if (raced) return { anchor: raced, rawTx: undefined };
        const nonce = await nonces.take(db);
        const signed = await sender.sign(hash, nonce, fees);
        const row = sender.newAnchor(hash, nonce, signed.txHash, now);
        await db.insertInto('anchors').values(row).execute();
        await sender.recordAttempt(db, hash, nonce, signed, fees, now);
        return { anchor: row, rawTx: signed.rawTx };
      });
      if (!outcome.rawTx) return alone(outcome.anchor, false);
      await sender.broadcast(outcome.rawTx);
      return alone(outcome.anchor, true);
    });
  }

  /**
   * Queues `hash` for the next batch and waits until that batch's transaction is
   * signed and sent. A hash already anchored, on its own or in a batch, gets that
   * anchor; a hash already queued waits for the same batch.
   */
  async enqueue(hash: Hex): Promise<AnchorOutcome> {
    const known = await this.batches.leaf(hash);
    if (known?.root) return this.batches.leafOutcome(known, false);
    let created = false;
    if (!known) {
      const existing = await this.sender.find(hash);
      if (existing) return { anchor: existing, created: false, leaf: hash, path: [] };
      created = await this.batches.queue(hash);
    }
    // Queued either way: it is sent once the relayer is funded again.
    await this.funds.require();
    await this.batches.flushIfFull();
    const outcome = await this.batches.awaitBatch(hash);
    return { ...outcome, created };
  }

  /** The anchor of a fingerprint: its batch (with its path) or its own transaction. */
  async anchorOf(hash: Hex): Promise<AnchorOutcome | undefined> {
    const leaf = await this.batches.leaf(hash);
    if (leaf) return leaf.root ? this.batches.leafOutcome(leaf, false) : undefined;
    const anchor = await this.sender.find(hash);
    return anchor && { anchor, created: false, leaf: hash, path: [] };
  }

  /** How many fingerprints the batch with Merkle root `root` holds; 0 when `root` is no batch's. */
  batchSize(root: Hex): Promise<number> {
    return this.batches.sizeOf(root);
  }

  /** Balance against the floor, and how many fingerprints wait. */
  async status(): Promise<RelayerStatus> {
    const funded = await this.funds.funded();
    return {
      status: funded ? 'ok' : 'relayer_low_balance',
      balanceWei: this.funds.lastBalance.toString(),
      minBalanceWei: this.options.minBalanceWei.toString(),
      queued: await this.batches.pendingCount(),
    };
  }

  /** Anchors the pending batch now; concurrent callers share one flush. */
  flush(): Promise<void> {
    return this.batches.flush();
  }

  /** One pass of the poller; concurrent callers share it. */
  poll(): Promise<void> {
    return this.recovery.poll();
  }
}
