/**
 * @module relayer/nonces
 * The relayer key's nonces, handed out one at a time: in this process by a queue
 * of nonce-taking tasks, across instances sharing one PostgreSQL database by a row
 * lock on `relayer_nonces`.
 */
import { type Database, transaction } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { ChainTables } from './tables.js';
import type { RelayerWallet } from './wallet.js';

export class Nonces {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly database: Database<ChainTables>,
    private readonly wallet: RelayerWallet,
  ) {}

  private get address() {
    return this.wallet.account.address;
  }

  /** Runs `work` after every earlier nonce-taking task: nonces are handed out one at a time. */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Resolves once every queued task has run. */
  idle(): Promise<unknown> {
    return this.queue;
  }

  /** The next nonce is the larger of ours and the chain's pending count (the key may have been used elsewhere). */
  async sync(): Promise<void> {
    const chainNonce = await this.wallet.client.getTransactionCount({
      address: this.address,
      blockTag: 'pending',
    });
    await transaction(this.database, async (db) => {
      const row = await this.lock(db);
      // Two relayer instances starting together on a new database both find no row.
      if (!row)
        await db
          .insertInto('relayer_nonces')
          .values({ address: this.address, chain_id: this.wallet.chainId, next_nonce: chainNonce })
          .onConflict((conflict) => conflict.columns(['address', 'chain_id']).doNothing())
          .execute();
      else if (row.next_nonce < chainNonce)
        await db
          .updateTable('relayer_nonces')
          .set({ next_nonce: chainNonce })
          .where('address', '=', this.address)
          .where('chain_id', '=', this.wallet.chainId)
          .execute();
    });
  }

  /** Takes the next nonce for good, inside the caller's database transaction. */
  async take(db: Kysely<ChainTables>): Promise<number> {
    const row = await this.lock(db);
    if (!row) throw new Error('The relayer nonce was not initialised.');
    await db
      .updateTable('relayer_nonces')
      .set({ next_nonce: row.next_nonce + 1 })
      .where('address', '=', this.address)
      .where('chain_id', '=', this.wallet.chainId)
      .execute();
    return row.next_nonce;
  }

  /**
   * Reads the nonce row; on PostgreSQL it is locked until the caller's transaction
   * ends, so several relayer instances take nonces one at a time.
   */
  lock(db: Kysely<ChainTables>) {
    let query = db
      .selectFrom('relayer_nonces')
      .select('next_nonce')
      .where('address', '=', this.address)
      .where('chain_id', '=', this.wallet.chainId);
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }
}
