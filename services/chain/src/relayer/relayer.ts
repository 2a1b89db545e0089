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
 */
import { type Database, type Logger, transaction } from '@xv/platform';
import type { Transaction } from 'kysely';
import { type Hex, keccak256 } from 'viem';
import type { AnchorRow, ChainDatabase, ChainDb } from './store.js';
import type { RelayerWallet } from './wallet.js';

/** Intrinsic 21 000 plus 16 per non-zero calldata byte for 32 bytes, with room to spare. */
const ANCHOR_GAS = 30_000n;

const FEE_CACHE_MS = 1000;

export interface RelayerOptions {
  confirmations: number;
  pollMs: number;
  stuckSeconds: number;
  feeBumpPercent: number;
}

export interface AnchorOutcome {
  anchor: AnchorRow;
  created: boolean;
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
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.polling;
    await this.queue;
  }

  /** Anchors `hash` (0x + 64 hex, lowercase), or returns the anchor it already has. */
  async anchor(hash: Hex): Promise<AnchorOutcome> {
    const existing = await this.find(hash);
    if (existing) return { anchor: existing, created: false };
    return this.exclusive(async () => {
      const again = await this.find(hash);
      if (again) return { anchor: again, created: false };
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
        const row: AnchorRow = {
          ref: hash,
          chain_id: this.chainId,
          from_address: this.address,
          nonce,
          tx_hash: signed.txHash,
          status: 'pending',
          block_number: null,
          confirmations: 0,
          attempts: 1,
          last_sent_at: now,
          created_at: now,
          updated_at: now,
        };
        await db.insertInto('anchors').values(row).execute();
        await this.recordAttempt(db, hash, nonce, signed, fees, now);
        return { anchor: row, rawTx: signed.rawTx };
      });
      if (!outcome.rawTx) return { anchor: outcome.anchor, created: false };
      await this.broadcast(outcome.rawTx);
      return { anchor: outcome.anchor, created: true };
    });
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
