/**
 * @module relayer/recovery
 * The poller, which makes every anchor get mined exactly once, whatever happened
 * to the process or the node: at start-up and every `pollMs` it reads receipts and
 * counts confirmations, re-sends the stored bytes of transactions the node does not
 * hold (a crash before or during broadcast), replaces one stuck longer than
 * `stuckSeconds` with higher fees (same nonce, so only one of them can ever be
 * mined), and gives an anchor a new nonce if that nonce was consumed by another
 * transaction of the same key. A reorganisation that drops a block makes its
 * anchors pending again.
 */
import { type Database, type Logger, transaction } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import type { Nonces } from './nonces.js';
import type { Fees, Sender } from './sending.js';
import type { AnchorRow, ChainTables } from './tables.js';

export interface RecoveryOptions {
  confirmations: number;
  stuckSeconds: number;
  feeBumpPercent: number;
}

export class Recovery {
  private polling: Promise<void> | undefined;
  private readonly db: Kysely<ChainTables>;

  constructor(
    private readonly database: Database<ChainTables>,
    private readonly parts: { nonces: Nonces; sender: Sender },
    private readonly options: RecoveryOptions,
    private readonly logger: Logger,
  ) {
    this.db = database.kysely;
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

  /** Resolves once a running poll is done. */
  async settled(): Promise<void> {
    await this.polling;
  }

  private async pollOnce(): Promise<void> {
    const { sender } = this.parts;
    const open = await this.db
      .selectFrom('anchors')
      .selectAll()
      .where('status', '!=', 'confirmed')
      .where('chain_id', '=', sender.chainId)
      .where('from_address', '=', sender.address)
      .orderBy('nonce')
      .execute();
    if (open.length === 0) return;
    const head = await sender.wallet.client.getBlockNumber({ cacheTime: 0 });
    let minedNonce: number | undefined;
    for (const anchor of open) {
      if (await this.settle(anchor, head)) continue;
      minedNonce ??= await sender.wallet.client.getTransactionCount({
        address: sender.address,
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
      const receipt = await this.parts.sender.receiptOf(tx_hash as Hex);
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
    const known = await this.parts.sender.wallet.client
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
      await this.parts.sender.broadcast(current.raw_tx as Hex);
    } else if (Date.now() - anchor.last_sent_at > this.options.stuckSeconds * 1000) {
      await this.bump(anchor, current);
    }
  }

  private async bump(
    anchor: AnchorRow,
    current: { max_fee_per_gas: string; max_priority_fee_per_gas: string },
  ): Promise<void> {
    const { sender } = this.parts;
    const factor = BigInt(100 + this.options.feeBumpPercent);
    const market = await sender.currentFees();
    const raise = (old: bigint, now: bigint) => {
      const bumped = (old * factor + 99n) / 100n;
      return bumped > now ? bumped : now;
    };
    const fees: Fees = {
      maxPriorityFeePerGas: raise(BigInt(current.max_priority_fee_per_gas), market.maxPriorityFeePerGas),
      maxFeePerGas: raise(BigInt(current.max_fee_per_gas), market.maxFeePerGas),
    };
    if (fees.maxPriorityFeePerGas > fees.maxFeePerGas) fees.maxFeePerGas = fees.maxPriorityFeePerGas;
    const signed = await sender.sign(anchor.ref as Hex, anchor.nonce, fees);
    const now = Date.now();
    await transaction(this.database, async (db) => {
      await sender.recordAttempt(db, anchor.ref, anchor.nonce, signed, fees, now);
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
    await sender.broadcast(signed.rawTx);
  }

  /** The anchor's nonce went to another transaction of this key: it gets the next free one. */
  private async renonce(anchor: AnchorRow): Promise<void> {
    const { nonces, sender } = this.parts;
    await nonces.exclusive(async () => {
      await nonces.sync();
      const fees = await sender.currentFees();
      const now = Date.now();
      const rawTx = await transaction(this.database, async (db) => {
        // Another relayer instance's poller may have re-sent this anchor while we waited
        // for the nonce: then there is nothing left to do (and no nonce to spend).
        await nonces.lock(db);
        if ((await sender.find(anchor.ref, db))?.nonce !== anchor.nonce) return undefined;
        const nonce = await nonces.take(db);
        const signed = await sender.sign(anchor.ref as Hex, nonce, fees);
        await sender.recordAttempt(db, anchor.ref, nonce, signed, fees, now);
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
      await sender.broadcast(rawTx);
    });
  }
}
