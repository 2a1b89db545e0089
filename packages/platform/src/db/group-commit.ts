/**
 * @module db/group-commit
 * Group commit: writes asked for in the same turn of the event loop (the step
 * results of many workflow runs finishing together, the credentials of a burst of
 * issuances, the rate-limit counts of a burst of requests) are written by one
 * statement, one commit, instead of one each. A write's promise settles only
 * once the batch that holds it has committed, so nothing is acknowledged (no
 * answer, no next step) before it is durable; a write whose batch fails is tried
 * again alone, so it fails on its own while the rest of its batch commits.
 *
 * While `maxInFlight` batches are being written, new writes wait and go together
 * into the next one: under load the batches grow instead of the commits queuing.
 */

/** Writes `items` in one commit; answers, item by item in order, what each write yields. */
export type BatchWriter<Item, Result> = (items: readonly Item[]) => Promise<Result[]>;

export interface GroupCommitOptions {
  /** Most writes in one batch (statement parameters are bounded). */
  maxBatch: number;
  /** Most batches being written at once. */
  maxInFlight: number;
}

interface Pending<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export class GroupCommit<Item, Result> {
  private pending: Pending<Item, Result>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly writeBatch: BatchWriter<Item, Result>,
    private readonly options: GroupCommitOptions,
  ) {}

  /** Resolves once `item` is committed. */
  write(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule() {
    if (this.scheduled || this.pending.length === 0 || this.inFlight >= this.options.maxInFlight) return;
    this.scheduled = true;
    // After the current turn: every write asked for in it joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
        void this.flush(this.pending.splice(0, this.options.maxBatch));
      }
    });
  }

  private async flush(batch: Pending<Item, Result>[]) {
    this.inFlight += 1;
    try {
      await this.settle(batch);
    } finally {
      this.inFlight -= 1;
      this.schedule();
    }
  }

  private async settle(batch: Pending<Item, Result>[]) {
    let results: Result[];
    try {
      results = await this.writeBatch(batch.map((entry) => entry.item));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      // One write must not fail the others: each is tried alone, and fails alone.
      await Promise.all(batch.map((entry) => this.settle([entry])));
      return;
    }
    for (const [i, entry] of batch.entries()) entry.resolve(results[i]!);
  }
}
