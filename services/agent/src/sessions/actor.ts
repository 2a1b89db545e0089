/**
 * @module sessions/actor
 * One object per session: it queues the session's work so one message is handled
 * at a time (a second message waits its turn, in arrival order), holds the
 * session's lease in the database while a turn runs (so other instances wait
 * too), and keeps a copy of the session in memory that is reused as long as the
 * session's revision in the database has not moved.
 */
import { newId } from '@xv/platform';
import {
  type Lease,
  NO_OWNER,
  type SessionDefaults,
  type SessionRecord,
  type SessionStore,
  type StoredMessage,
} from './store.js';

export interface ActorOptions {
  /** Messages kept in memory for the model's view of the history. */
  windowSize: number;
  leaseMs: number;
  /** Longest wait for the session's turn. */
  waitMs: number;
}

/** What a turn sees: the session and its latest messages. */
export interface SessionSnapshot extends SessionRecord {
  window: StoredMessage[];
}

/** The session held exclusively until `release`. */
export interface SessionTurn {
  readonly lease: Lease;
  readonly snapshot: SessionSnapshot;
  /** Records a write made under the lease, so the cached copy stays current. */
  update(rev: number, change: (snapshot: SessionSnapshot) => void): void;
  release(): Promise<void>;
}

export class TurnWaitTimeout extends Error {
  override name = 'TurnWaitTimeout';
}

export class SessionActor {
  lastUsed = Date.now();
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private cached: SessionSnapshot | undefined;
  private created = false;

  constructor(
    readonly id: string,
    private readonly store: SessionStore,
    private readonly options: ActorOptions,
    /** Owner and tenant the session is created with on its first turn. */
    private readonly initial: SessionDefaults = NO_OWNER,
  ) {}

  /** True while a turn runs or waits; a busy actor never leaves memory. */
  get busy(): boolean {
    return this.queued > 0;
  }

  /**
   * Waits for this session's turn (behind earlier messages here, and behind any
   * other instance holding the lease), then holds the session until `release`.
   */
  async acquire(signal?: AbortSignal): Promise<SessionTurn> {
    this.lastUsed = Date.now();
    this.queued += 1;
    const previous = this.tail;
    let pass!: () => void;
    this.tail = new Promise<void>((resolve) => {
      pass = resolve;
    });
    const leave = () => {
      this.queued -= 1;
      this.lastUsed = Date.now();
      pass();
    };
    let lease: Lease | undefined;
    try {
      await previous;
      signal?.throwIfAborted();
      if (!this.created) {
        // A session created just now is known without reading it back.
        if (await this.store.ensure(this.id, this.initial)) this.cached = newSession(this.id, this.initial);
        this.created = true;
      }
      lease = await this.waitForLease(signal);
      const snapshot = await this.snapshotAt(lease.rev);
      return this.turn(lease, snapshot, leave);
    } catch (error) {
      if (lease) await this.store.release(lease).catch(() => {});
      leave();
      throw error;
    }
  }

  /** The session as stored now (without waiting for a running turn). */
  async read(): Promise<SessionSnapshot | undefined> {
    this.lastUsed = Date.now();
    const rev = await this.store.revision(this.id);
    if (rev === undefined) return undefined;
    return this.snapshotAt(rev);
  }

  private async snapshotAt(rev: number): Promise<SessionSnapshot> {
    if (this.cached?.rev === rev) return this.cached;
    const [record, window] = await Promise.all([
      this.store.read(this.id),
      this.store.messages(this.id, this.options.windowSize),
    ]);
    if (!record) throw new Error(`Session ${this.id} vanished.`);
    this.cached = { ...record, window };
    return this.cached;
  }

  private async waitForLease(signal?: AbortSignal): Promise<Lease> {
    const owner = newId('lease');
    const deadline = Date.now() + this.options.waitMs;
    // Another instance holds the session: poll with a growing pause (10 ms … 200 ms).
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const lease = await this.store.tryLease(this.id, owner, this.options.leaseMs);
      if (lease) return lease;
      if (Date.now() + pause > deadline) throw new TurnWaitTimeout();
      await sleep(pause, signal);
    }
  }

  private turn(lease: Lease, snapshot: SessionSnapshot, leave: () => void): SessionTurn {
    // Renew well before expiry, for as long as the turn runs.
    const renewal = setInterval(
      () => void this.store.renew(lease, this.options.leaseMs).catch(() => {}),
      Math.max(1000, this.options.leaseMs / 3),
    );
    renewal.unref();
    let released = false;
    return {
      lease,
      snapshot,
      update: (rev, change) => {
        if (this.cached !== snapshot) return;
        change(snapshot);
        snapshot.rev = rev;
        snapshot.window = snapshot.window.slice(-this.options.windowSize);
      },
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renewal);
        try {
          await this.store.release(lease);
        } finally {
          leave();
        }
      },
    };
  }
}

function newSession(id: string, initial: SessionDefaults): SessionSnapshot {
  return { id, tenant: initial.tenant, route: null, systemPrompt: null, rev: 0, messageCount: 0, window: [] };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}
