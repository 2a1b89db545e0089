/**
 * @module relayer/relayer
 * Anchoring 32-byte hashes on an EVM chain, exactly once each.
 *
 * An anchor is a 0-value transaction from the relayer to itself whose calldata is
 * the hash. Its life:
 * 1. In one database transaction the hash gets the next nonce for good, and the
 *    signed transaction is stored before anything is sent (write-ahead). A second
 *    request for the same hash finds that row and gets the same answer.
 * 2. The signed bytes are broadcast. If the process dies before or during that,
 *    the poller (at start-up and every `pollMs`) finds the row and sends the same
 *    bytes again: same nonce, same transaction hash, so nothing is lost or doubled.
 * 3. The poller reads receipts, counts confirmations, re-sends transactions the
 *    node forgot, replaces one stuck longer than `stuckSeconds` with higher fees
 *    (same nonce, so only one of them can ever be mined), and gives an anchor a new
 *    nonce if that nonce was consumed by another transaction of the same key.
 *
 * Several instances may share the key and one PostgreSQL database: a nonce is only
 * handed out under a row lock on `relayer_nonces`, and whoever gets the lock first
 * looks again for the hash (or the re-send) another instance may have just committed.
 *
 * Batches: a fingerprint may instead join the queue (`batch_leaves`). Every
 * `batchIntervalMs`, or as soon as `batchMax` wait, one flush takes the nonce lock,
 * builds the Merkle tree of the pending fingerprints and anchors its root exactly as
 * above, recording each leaf's path in the same database transaction: one
 * transaction pays for the whole batch, and a crash leaves the batch either fully
 * recorded (the poller sends it) or still queued.
 *
 * Below `minBalanceWei` the relayer signs nothing new (re-sends and fee bumps of
 * transactions already signed go on): immediate anchors are refused with
 * `relayer_low_balance`, queued fingerprints stay queued until it is funded again.
 */
import { type Database, type Logger, transaction } from '@xv/platform';
import type { Transaction } from 'kysely';
import { type Hex, keccak256 } from 'viem';
import { errors } from '../errors.js';
import { batchTree } from './merkle.js';
import type { AnchorRow, BatchLeavesTable, ChainDatabase, ChainDb } from './store.js';
import type { RelayerWallet } from './wallet.js';

/** Intrinsic 21 000 plus 16 per non-zero calldata byte for 32 bytes, with room to spare. */
const ANCHOR_GAS = 30_000n;

const FEE_CACHE_MS = 1000;
/** The balance is read at most this often: a burst of anchors costs one read. */
const BALANCE_CACHE_MS = 1000;
/** How long an anchor request waits for its batch beyond the batch interval. */
const BATCH_WAIT_MS = 15_000;

export interface RelayerOptions {
  confirmations: number;
  pollMs: number;
  stuckSeconds: number;
  feeBumpPercent: number;
  batchIntervalMs: number;
  batchMax: number;
  minBalanceWei: bigint;
}

/**
 * An anchor as a fingerprint sees it: the transaction's `anchor` (whose `ref` is the
 * hash the transaction carries, the batch root) and the `path` from `leaf` up to it
 * (empty when the fingerprint was anchored on its own).
 */
export interface AnchorOutcome {
  anchor: AnchorRow;
  created: boolean;
  leaf: Hex;
  path: Hex[];
}

export interface RelayerStatus {
  status: 'ok' | 'relayer_low_balance';
  balanceWei: string;
  minBalanceWei: string;
  /** Fingerprints waiting for a batch. */
  queued: number;
}

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export class Relayer {
  private readonly db: ChainDb;
  private queue: Promise<unknown> = Promise.resolve();
  private polling: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private fees: { value: Fees; expires: number } | undefined;
  private balance: { value: bigint; expires: number } | undefined;
  private flushing: Promise<void> | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  readonly address: Hex;
  readonly chainId: number;

  constructor(
    private readonly database: Database,
    readonly wallet: RelayerWallet,
    private readonly options: RelayerOptions,
    private readonly logger: Logger,
  ) {
    this.db = database.kysely as ChainDb;
    this.address = wallet.account.address;
    this.chainId = wallet.chainId;
  }

  /** Brings the nonce in line with the chain, re-sends what a previous run left unsent, then polls. */
  async start(): Promise<void> {
    await this.syncNonce();
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
    this.batchTimer = setInterval(() => void this.flush(), this.options.batchIntervalMs);
    this.batchTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.batchTimer);
    await this.polling;
    await this.flushing;
    await this.queue;
  }

  /**
   * Anchors `hash` (0x + 64 hex, lowercase) in a transaction of its own, or returns the
   * anchor it already has (its batch's, when it was queued).
   */
  async anchor(hash: Hex): Promise<AnchorOutcome> {
    const alone = (anchor: AnchorRow, created: boolean) => ({ anchor, created, leaf: hash, path: [] });
    if (await this.leaf(hash)) return this.awaitBatch(hash);
    const existing = await this.find(hash);
    if (existing) return alone(existing, false);
    await this.requireFunds();
    return this.exclusive(async () => {
      const again = await this.find(hash);
      if (again) return alone(again, false);
      const fees = await this.currentFees();
      const now = Date.now();
      const outcome = await transaction(this.database, async (trx) => {
        const db = trx as Transaction<ChainDatabase>;
        // Waits for any other relayer instance that is handing out a nonce; if it was
        // anchoring this very hash, its anchor is committed by now and stands.
        await this.nonceRow(db);
        const raced = await this.find(hash, db);
        if (raced) return { anchor: raced, rawTx: undefined };
        const nonce = await this.takeNonce(db);
        const signed = await this.sign(hash, nonce, fees);
        const row = this.newAnchor(hash, nonce, signed.txHash, now);
        await db.insertInto('anchors').values(row).execute();
        await this.recordAttempt(db, hash, nonce, signed, fees, now);
        return { anchor: row, rawTx: signed.rawTx };
      });
      if (!outcome.rawTx) return alone(outcome.anchor, false);
      await this.broadcast(outcome.rawTx);
      return alone(outcome.anchor, true);
    });
  }

  /**
   * Queues `hash` for the next batch and waits until that batch's transaction is
   * signed and sent. A hash already anchored, on its own or in a batch, gets that
   * anchor; a hash already queued waits for the same batch.
   */
  async enqueue(hash: Hex): Promise<AnchorOutcome> {
    const known = await this.leaf(hash);
    if (known?.root) return this.leafOutcome(known, false);
    let created = false;
    if (!known) {
      const existing = await this.find(hash);
      if (existing) return { anchor: existing, created: false, leaf: hash, path: [] };
      const inserted = await this.db
        .insertInto('batch_leaves')
        .values({
          fingerprint: hash,
          chain_id: this.chainId,
          root: null,
          path: null,
          queued_at: Date.now(),
          batched_at: null,
        })
        .onConflict((conflict) => conflict.column('fingerprint').doNothing())
        .executeTakeFirst();
      created = Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
    }
    // Queued either way: it is sent once the relayer is funded again.
    await this.requireFunds();
    if ((await this.pendingCount()) >= this.options.batchMax) void this.flush();
    const outcome = await this.awaitBatch(hash);
    return { ...outcome, created };
  }

  /** The anchor of a fingerprint: its batch (with its path) or its own transaction. */
  async anchorOf(hash: Hex): Promise<AnchorOutcome | undefined> {
    const leaf = await this.leaf(hash);
    if (leaf) return leaf.root ? this.leafOutcome(leaf, false) : undefined;
    const anchor = await this.find(hash);
    return anchor && { anchor, created: false, leaf: hash, path: [] };
  }

  /** Balance against the floor, and how many fingerprints wait. */
  async status(): Promise<RelayerStatus> {
    const funded = await this.funded();
    return {
      status: funded ? 'ok' : 'relayer_low_balance',
      balanceWei: (this.balance?.value ?? 0n).toString(),
      minBalanceWei: this.options.minBalanceWei.toString(),
      queued: await this.pendingCount(),
    };
  }

  /** Anchors the pending batch now; concurrent callers share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.exclusive(() => this.flushOnce())
      .catch((error) => this.logger.warn({ err: error }, 'batch flush failed; the queue is kept'))
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    if ((await this.pendingCount()) === 0 || !(await this.funded())) return;
    const fees = await this.currentFees();
    const now = Date.now();
    const rawTx = await transaction(this.database, async (trx) => {
      const db = trx as Transaction<ChainDatabase>;
      // The nonce lock also makes flushes of several instances take turns: the second
      // one finds the leaves the first has just batched no longer pending.
      await this.nonceRow(db);
      const pending = await db
        .selectFrom('batch_leaves')
        .select('fingerprint')
        .where('chain_id', '=', this.chainId)
        .where('root', 'is', null)
        .orderBy('queued_at')
        .orderBy('fingerprint')
        .limit(this.options.batchMax)
        .execute();
      if (pending.length === 0) return undefined;
      const fingerprints = pending.map((row) => row.fingerprint as Hex);
      // A fingerprint anchored on its own meanwhile keeps that anchor.
      const alone = await db
        .selectFrom('anchors')
        .select('ref')
        .where('chain_id', '=', this.chainId)
        .where('ref', 'in', fingerprints)
        .execute();
      for (const { ref } of alone) await this.placeLeaf(db, ref, ref, [], now);
      const leaves = fingerprints.filter((leaf) => !alone.some((row) => row.ref === leaf));
      if (leaves.length === 0) return undefined;
      const tree = batchTree(leaves);
      let raw: Hex | undefined;
      if (!(await this.find(tree.root, db))) {
        const nonce = await this.takeNonce(db);
        const signed = await this.sign(tree.root, nonce, fees);
        await db
          .insertInto('anchors')
          .values(this.newAnchor(tree.root, nonce, signed.txHash, now))
          .execute();
        await this.recordAttempt(db, tree.root, nonce, signed, fees, now);
        raw = signed.rawTx;
      }
      for (const leaf of leaves) await this.placeLeaf(db, leaf, tree.root, tree.paths.get(leaf) ?? [], now);
      this.logger.info({ root: tree.root, leaves: leaves.length }, 'batch anchored');
      return raw;
    });
    if (rawTx) await this.broadcast(rawTx);
  }

  private placeLeaf(db: Transaction<ChainDatabase>, leaf: string, root: string, path: string[], now: number) {
    return db
      .updateTable('batch_leaves')
      .set({ root, path: JSON.stringify(path), batched_at: now })
      .where('fingerprint', '=', leaf)
      .execute();
  }

  /** Waits for the flush (of this instance or another) that batches `hash`. */
  private async awaitBatch(hash: Hex): Promise<AnchorOutcome> {
    const deadline = Date.now() + this.options.batchIntervalMs + BATCH_WAIT_MS;
    const pause = Math.min(50, Math.max(10, Math.floor(this.options.batchIntervalMs / 10)));
    for (;;) {
      const leaf = await this.leaf(hash);
      if (leaf?.root) {
        // The batch is committed before it is broadcast: answer once this instance's flush has sent it.
        await this.flushing;
        return this.leafOutcome(leaf, false);
      }
      if (this.balance && this.balance.value < this.options.minBalanceWei) throw errors.relayer_low_balance();
      if (Date.now() > deadline) throw errors.batch_not_sent();
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  private async leafOutcome(leaf: BatchLeavesTable, created: boolean): Promise<AnchorOutcome> {
    const anchor = await this.find(leaf.root as string);
    if (!anchor) throw new Error(`The batch root of ${leaf.fingerprint} has no anchor.`);
    return { anchor, created, leaf: leaf.fingerprint as Hex, path: JSON.parse(leaf.path ?? '[]') as Hex[] };
  }

  private leaf(hash: string) {
    return this.db.selectFrom('batch_leaves').selectAll().where('fingerprint', '=', hash).executeTakeFirst();
  }

  private async pendingCount(): Promise<number> {
    const row = await this.db
      .selectFrom('batch_leaves')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('chain_id', '=', this.chainId)
      .where('root', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** True when the balance is at or above the floor; read at most once a second. */
  private async funded(): Promise<boolean> {
    const now = Date.now();
    if (!this.balance || this.balance.expires <= now) {
      const value = await this.wallet.client.getBalance({ address: this.address });
      const wasLow = this.balance !== undefined && this.balance.value < this.options.minBalanceWei;
      this.balance = { value, expires: now + BALANCE_CACHE_MS };
      const low = value < this.options.minBalanceWei;
      if (low && !wasLow)
        this.logger.error(
          { balanceWei: value.toString(), minBalanceWei: this.options.minBalanceWei.toString() },
          'relayer balance below its floor: no new transactions until it is funded',
        );
      else if (!low && wasLow) this.logger.info({ balanceWei: value.toString() }, 'relayer funded again');
    }
    return this.balance.value >= this.options.minBalanceWei;
  }

  private async requireFunds(): Promise<void> {
    if (!(await this.funded())) throw errors.relayer_low_balance();
  }

  private newAnchor(ref: string, nonce: number, txHash: Hex, now: number): AnchorRow {
    return {
      ref,
      chain_id: this.chainId,
      from_address: this.address,
      nonce,
      tx_hash: txHash,
      status: 'pending',
      block_number: null,
      confirmations: 0,
      attempts: 1,
      last_sent_at: now,
      created_at: now,
      updated_at: now,
    };
  }

  find(ref: string, db: ChainDb | Transaction<ChainDatabase> = this.db): Promise<AnchorRow | undefined> {
    return db
      .selectFrom('anchors')
      .selectAll()
      .where('ref', '=', ref)
      .where('chain_id', '=', this.chainId)
      .executeTakeFirst();
  }

  /** One pass of the poller; concurrent callers share it. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce()
      .catch((error) => this.logger.warn({ err: error }, 'anchor poll failed; retrying'))
      .finally(() => {
        this.polling = undefined;
      });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    const open = await this.db
      .selectFrom('anchors')
      .selectAll()
      .where('status', '!=', 'confirmed')
      .where('chain_id', '=', this.chainId)
      .where('from_address', '=', this.address)
      .orderBy('nonce')
      .execute();
    if (open.length === 0) return;
    const head = await this.wallet.client.getBlockNumber({ cacheTime: 0 });
    let minedNonce: number | undefined;
    for (const anchor of open) {
      if (await this.settle(anchor, head)) continue;
      minedNonce ??= await this.wallet.client.getTransactionCount({
        address: this.address,
        blockTag: 'latest',
      });
      // Re-read after the nonce: a transaction mined in between is seen here.
      if (minedNonce > anchor.nonce && !(await this.settle(anchor, head))) {
        await this.renonce(anchor);
        continue;
      }
      await this.keepMoving(anchor);
    }
  }

  /** Records a receipt of any attempt; true when one exists. */
  private async settle(anchor: AnchorRow, head: bigint): Promise<boolean> {
    const attempts = await this.db
      .selectFrom('anchor_attempts')
      .select('tx_hash')
      .where('ref', '=', anchor.ref)
      .where('nonce', '=', anchor.nonce)
      .orderBy('created_at', 'desc')
      .execute();
    for (const { tx_hash } of attempts) {
      const receipt = await this.receiptOf(tx_hash as Hex);
      if (!receipt) continue;
      const confirmations = Number(head - receipt.blockNumber + 1n);
      await this.db
        .updateTable('anchors')
        .set({
          tx_hash,
          block_number: Number(receipt.blockNumber),
          confirmations: Math.max(confirmations, 1),
          status: confirmations >= this.options.confirmations ? 'confirmed' : 'mined',
          updated_at: Date.now(),
        })
        .where('ref', '=', anchor.ref)
        .execute();
      return true;
    }
    if (anchor.status === 'mined') {
      // A reorganisation dropped the block: the anchor is pending again.
      await this.db
        .updateTable('anchors')
        .set({ status: 'pending', block_number: null, confirmations: 0, updated_at: Date.now() })
        .where('ref', '=', anchor.ref)
        .execute();
    }
    return false;
  }

  /** Not mined yet: re-send what the node forgot, replace what is stuck. */
  private async keepMoving(anchor: AnchorRow): Promise<void> {
    const current = await this.db
      .selectFrom('anchor_attempts')
      .selectAll()
      .where('tx_hash', '=', anchor.tx_hash)
      .executeTakeFirstOrThrow();
    const known = await this.wallet.client
      .getTransaction({ hash: anchor.tx_hash as Hex })
      .then(() => true)
      .catch((error: Error) => {
        if (error.name === 'TransactionNotFoundError') return false;
        throw error;
      });
    if (!known) {
      this.logger.info(
        { ref: anchor.ref, nonce: anchor.nonce },
        're-sending an anchor the node does not hold',
      );
      await this.broadcast(current.raw_tx as Hex);
    } else if (Date.now() - anchor.last_sent_at > this.options.stuckSeconds * 1000) {
      await this.bump(anchor, current);
    }
  }

  private async bump(
    anchor: AnchorRow,
    current: { max_fee_per_gas: string; max_priority_fee_per_gas: string },
  ): Promise<void> {
    const factor = BigInt(100 + this.options.feeBumpPercent);
    const market = await this.currentFees();
    const raise = (old: bigint, now: bigint) => {
      const bumped = (old * factor + 99n) / 100n;
      return bumped > now ? bumped : now;
    };
    const fees: Fees = {
      maxPriorityFeePerGas: raise(BigInt(current.max_priority_fee_per_gas), market.maxPriorityFeePerGas),
      maxFeePerGas: raise(BigInt(current.max_fee_per_gas), market.maxFeePerGas),
    };
    if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) fees.maxFeePerGas = fees.maxPriorityFeePerGas;
    const signed = await this.sign(anchor.ref as Hex, anchor.nonce, fees);
    const now = Date.now();
    await transaction(this.database, async (trx) => {
      const db = trx as Transaction<ChainDatabase>;
      await this.recordAttempt(db, anchor.ref, anchor.nonce, signed, fees, now);
      await db
        .updateTable('anchors')
        .set({ tx_hash: signed.txHash, attempts: anchor.attempts + 1, last_sent_at: now, updated_at: now })
        .where('ref', '=', anchor.ref)
        .execute();
    });
    this.logger.warn(
      { ref: anchor.ref, nonce: anchor.nonce, txHash: signed.txHash, attempt: anchor.attempts + 1 },
      'anchor stuck: replaced with higher fees',
    );
    await this.broadcast(signed.rawTx);
  }

  /** The anchor's nonce went to another transaction of this key: it gets the next free one. */
  private async renonce(anchor: AnchorRow): Promise<void> {
    await this.exclusive(async () => {
      await this.syncNonce();
      const fees = await this.currentFees();
      const now = Date.now();
      const rawTx = await transaction(this.database, async (trx) => {
        const db = trx as Transaction<ChainDatabase>;
        // Another relayer instance's poller may have re-sent this anchor while we waited
        // for the nonce: then there is nothing left to do (and no nonce to spend).
        await this.nonceRow(db);
        if ((await this.find(anchor.ref, db))?.nonce !== anchor.nonce) return undefined;
        const nonce = await this.takeNonce(db);
        const signed = await this.sign(anchor.ref as Hex, nonce, fees);
        await this.recordAttempt(db, anchor.ref, nonce, signed, fees, now);
        await db
          .updateTable('anchors')
          .set({
            nonce,
            tx_hash: signed.txHash,
            attempts: anchor.attempts + 1,
            last_sent_at: now,
            updated_at: now,
          })
          .where('ref', '=', anchor.ref)
          .execute();
        return signed.rawTx;
      });
      if (!rawTx) return;
      this.logger.warn(
        { ref: anchor.ref, oldNonce: anchor.nonce },
        'anchor nonce was used elsewhere: re-sent',
      );
      await this.broadcast(rawTx);
    });
  }

  /** The next nonce is the larger of ours and the chain's pending count (the key may have been used elsewhere). */
  private async syncNonce(): Promise<void> {
    const chainNonce = await this.wallet.client.getTransactionCount({
      address: this.address,
      blockTag: 'pending',
    });
    await transaction(this.database, async (trx) => {
      const db = trx as Transaction<ChainDatabase>;
      const row = await this.nonceRow(db);
      // Two relayer instances starting together on a new database both find no row.
      if (!row)
        await db
          .insertInto('relayer_nonces')
          .values({ address: this.address, chain_id: this.chainId, next_nonce: chainNonce })
          .onConflict((conflict) => conflict.columns(['address', 'chain_id']).doNothing())
          .execute();
      else if (row.next_nonce < chainNonce)
        await db
          .updateTable('relayer_nonces')
          .set({ next_nonce: chainNonce })
          .where('address', '=', this.address)
          .where('chain_id', '=', this.chainId)
          .execute();
    });
  }

  private async takeNonce(db: Transaction<ChainDatabase>): Promise<number> {
    const row = await this.nonceRow(db);
    if (!row) throw new Error('The relayer nonce was not initialised.');
    await db
      .updateTable('relayer_nonces')
      .set({ next_nonce: row.next_nonce + 1 })
      .where('address', '=', this.address)
      .where('chain_id', '=', this.chainId)
      .execute();
    return row.next_nonce;
  }

  private nonceRow(db: Transaction<ChainDatabase>) {
    let query = db
      .selectFrom('relayer_nonces')
      .select('next_nonce')
      .where('address', '=', this.address)
      .where('chain_id', '=', this.chainId);
    // Several relayer instances on one PostgreSQL database take nonces one at a time.
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  private async sign(hash: Hex, nonce: number, fees: Fees) {
    const rawTx = await this.wallet.account.signTransaction({
      type: 'eip1559',
      chainId: this.chainId,
      to: this.address,
      value: 0n,
      data: hash,
      nonce,
      gas: ANCHOR_GAS,
      ...fees,
    });
    return { rawTx, txHash: keccak256(rawTx) };
  }

  private recordAttempt(
    db: Transaction<ChainDatabase>,
    ref: string,
    nonce: number,
    signed: { rawTx: Hex; txHash: Hex },
    fees: Fees,
    now: number,
  ) {
    return db
      .insertInto('anchor_attempts')
      .values({
        tx_hash: signed.txHash,
        ref,
        nonce,
        raw_tx: signed.rawTx,
        max_fee_per_gas: fees.maxFeePerGas.toString(),
        max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
        created_at: now,
      })
      .execute();
  }

  /** Fee estimates, reused for a second: a burst of anchors costs one estimate, not one each. */
  private async currentFees(): Promise<Fees> {
    const now = Date.now();
    if (this.fees && this.fees.expires > now) return this.fees.value;
    const { maxFeePerGas, maxPriorityFeePerGas } = await this.wallet.client.estimateFeesPerGas();
    const value = { maxFeePerGas, maxPriorityFeePerGas };
    this.fees = { value, expires: now + FEE_CACHE_MS };
    return value;
  }

  /** Sends signed bytes; a refusal is logged, not thrown: the poller sends again or replaces them. */
  private async broadcast(rawTx: Hex): Promise<void> {
    try {
      await this.wallet.client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message.split('\n')[0] }, 'broadcast refused; will retry');
    }
  }

  private async receiptOf(hash: Hex) {
    try {
      return await this.wallet.client.getTransactionReceipt({ hash });
    } catch (error) {
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    }
  }

  /** Runs `work` after every earlier nonce-taking task: nonces are handed out one at a time. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }
}
