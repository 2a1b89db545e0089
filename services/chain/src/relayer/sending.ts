/**
 * @module relayer/sending
 * Making and sending anchor transactions: a 0-value transaction from the relayer
 * to itself whose calldata is the hash. Each signed attempt is stored before it is
 * broadcast (write-ahead), so the poller can send the same bytes again.
 */
import type { Logger } from '@xv/platform';
import type { Kysely } from 'kysely';
import { type Hex, keccak256 } from 'viem';
import type { AnchorRow, ChainTables } from './tables.js';
import type { RelayerWallet } from './wallet.js';

/** Intrinsic 21 000 plus 16 per non-zero calldata byte for 32 bytes, with room to spare. */
const ANCHOR_GAS = 30_000n;
const FEE_CACHE_MS = 1000;

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SignedAnchor {
  rawTx: Hex;
  txHash: Hex;
}

export class Sender {
  private fees: { value: Fees; expires: number } | undefined;

  constructor(
    private readonly db: Kysely<ChainTables>,
    readonly wallet: RelayerWallet,
    private readonly logger: Logger,
  ) {}

  get address(): Hex {
    return this.wallet.account.address;
  }

  get chainId(): number {
    return this.wallet.chainId;
  }

  /** The anchor carrying `ref` on this chain, read in `db` (a transaction) or outside one. */
  find(ref: string, db: Kysely<ChainTables> = this.db): Promise<AnchorRow | undefined> {
    return db
      .selectFrom('anchors')
      .selectAll()
      .where('ref', '=', ref)
      .where('chain_id', '=', this.chainId)
      .executeTakeFirst();
  }

  newAnchor(ref: string, nonce: number, txHash: Hex, now: number): AnchorRow {
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

  async sign(hash: Hex, nonce: number, fees: Fees): Promise<SignedAnchor> {
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

  recordAttempt(
    db: Kysely<ChainTables>,
    ref: string,
    nonce: number,
    signed: SignedAnchor,
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
  async currentFees(): Promise<Fees> {
    const now = Date.now();
    if (this.fees && this.fees.expires > now) return this.fees.value;
    const { maxFeePerGas, maxPriorityFeePerGas } = await this.wallet.client.estimateFeesPerGas();
    const value = { maxFeePerGas, maxPriorityFeePerGas };
    this.fees = { value, expires: now + FEE_CACHE_MS };
    return value;
  }

  /** Sends signed bytes; a refusal is logged, not thrown: the poller sends again or replaces them. */
  async broadcast(rawTx: Hex): Promise<void> {
    try {
      await this.wallet.client.sendRawTransaction({ serializedTransaction: rawTx });
    } catch (error) {
      this.logger.warn({ err: (error as Error).message.split('\n')[0] }, 'broadcast refused; will retry');
    }
  }

  async receiptOf(hash: Hex) {
    try {
      return await this.wallet.client.getTransactionReceipt({ hash });
    } catch (error) {
      if ((error as Error).name === 'TransactionReceiptNotFoundError') return null;
      throw error;
    }
  }
}
