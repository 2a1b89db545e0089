/**
 * @module revocations/epoch
 * The revocation epoch: a counter in identity's database, bumped in the same
 * transaction as every change that takes access away (a member removed or their
 * role changed, a user disabled or enabled again, a service client revoked).
 *
 * Other services hold `GET /api/revocations/epoch` open and empty their caches when
 * it moves. Inside identity, `RevocationEpoch` is what this process believes the
 * epoch to be: the session cache trusts an answer only while the epoch is the one it
 * was read under, and re-reads the counter when its view is older than half a second,
 * so a change made by another identity instance, or by an operator command writing
 * the database directly, is honoured within a second. While requests wait for a
 * change, the counter is read every 250 ms.
 */
import type { Kysely } from 'kysely';
import type { Tables } from '../db.js';

/** Called inside the transaction that takes access away. */
export async function bumpRevocationEpoch(trx: Kysely<Tables>): Promise<void> {
  await trx
    .updateTable('access_revocations')
    .set((eb) => ({ epoch: eb('epoch', '+', 1), changed_at: Date.now() }))
    .where('id', '=', 1)
    .execute();
}

export async function readRevocationEpoch(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom('access_revocations')
    .select('epoch')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.epoch);
}

export interface RevocationEpochOptions {
  /** How old this process's view of the epoch may be before a cached answer is re-checked. */
  maxAgeMs?: number;
  /** How often the counter is read while requests wait for it to change. */
  pollMs?: number;
}

interface Waiter {
  after: number;
  done: () => void;
}

export class RevocationEpoch {
  private known = -1;
  private readAt = 0;
  private reading: Promise<number> | undefined;
  private poller: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(epoch: number) => void>();
  private readonly maxAgeMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly db: Kysely<Tables>,
    options: RevocationEpochOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 500;
    this.pollMs = options.pollMs ?? 250;
  }

  /** Calls `listener` when this process sees the epoch move. */
  onChange(listener: (epoch: number) => void) {
    this.listeners.add(listener);
  }

  /** The epoch as read at most `maxAgeMs` ago (concurrent callers share one read). */
  async current(): Promise<number> {
    if (this.known >= 0 && Date.now() - this.readAt < this.maxAgeMs) return this.known;
    return this.read();
  }

  /** Reads the counter now; call it after committing a bump, so this process acts on it at once. */
  read(): Promise<number> {
    this.reading ??= (async () => {
      try {
        const startedAt = Date.now();
        const epoch = await readRevocationEpoch(this.db);
        this.readAt = startedAt;
        if (epoch !== this.known) {
          this.known = epoch;
          for (const listener of this.listeners) listener(epoch);
          for (const waiter of this.waiters) if (waiter.after !== epoch) waiter.done();
        }
        return epoch;
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  /**
   * The epoch once it differs from `after`: at once when it already does (or `after`
   * is absent), else when it changes, when `holdMs` has passed, or when `signal`
   * aborts (a shutdown, or the caller went away), whichever comes first.
   */
  async waitForChange(after: number | undefined, holdMs: number, signal: AbortSignal): Promise<number> {
    const epoch = await this.read();
    if (after === undefined || epoch !== after || signal.aborted) return epoch;
    await new Promise<void>((resolve) => {
      const waiter: Waiter = {
        after,
        done: () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', waiter.done);
          this.waiters.delete(waiter);
          if (this.waiters.size === 0) this.stopPolling();
          resolve();
        },
      };
      const timer = setTimeout(waiter.done, holdMs);
      timer.unref();
      signal.addEventListener('abort', waiter.done, { once: true });
      this.waiters.add(waiter);
      this.startPolling();
    });
    return this.read();
  }

  /** Ends every wait (shutdown). */
  close() {
    for (const waiter of this.waiters) waiter.done();
  }

  private startPolling() {
    if (this.poller) return;
    this.poller = setInterval(() => void this.read().catch(() => {}), this.pollMs);
    this.poller.unref();
  }

  private stopPolling() {
    clearInterval(this.poller);
    this.poller = undefined;
  }
}
