/**
 * @module relayer/funds
 * The relayer's balance against its floor (`minBalanceWei`): below it the relayer
 * signs nothing new. The balance is read at most once a second, so a burst of
 * anchors costs one read; crossing the floor either way is logged once.
 */
import type { Logger } from '@xv/platform';
import { errors } from '../errors.js';
import type { RelayerWallet } from './wallet.js';

const BALANCE_CACHE_MS = 1000;

export class Funds {
  private balance: { value: bigint; expires: number } | undefined;

  constructor(
    private readonly wallet: RelayerWallet,
    readonly minBalanceWei: bigint,
    private readonly logger: Logger,
  ) {}

  /** The balance last read (0 before the first read). */
  get lastBalance(): bigint {
    return this.balance?.value ?? 0n;
  }

  /** True when the last read balance was below the floor (false before the first read). */
  get knownLow(): boolean {
    return this.balance !== undefined && this.balance.value < this.minBalanceWei;
  }

  /** True when the balance is at or above the floor. */
  async funded(): Promise<boolean> {
    const now = Date.now();
    if (!this.balance || this.balance.expires <= now) {
      const value = await this.wallet.client.getBalance({ address: this.wallet.account.address });
      const wasLow = this.knownLow;
      this.balance = { value, expires: now + BALANCE_CACHE_MS };
      const low = value < this.minBalanceWei;
      if (low && !wasLow)
        this.logger.error(
          { balanceWei: value.toString(), minBalanceWei: this.minBalanceWei.toString() },
          'relayer balance below its floor: no new transactions until it is funded',
        );
      else if (!low && wasLow) this.logger.info({ balanceWei: value.toString() }, 'relayer funded again');
    }
    return this.balance.value >= this.minBalanceWei;
  }

  /** Refuses with `relayer_low_balance` below the floor. */
  async require(): Promise<void> {
    if (!(await this.funded())) throw errors.relayer_low_balance();
  }
}
