/**
 * @module sessions/registry
 * The session objects in memory. A session's object is created on first use and
 * leaves memory when it has been idle for `idleMs`, or when more than
 * `maxActors` are held (the least recently used idle ones first). Its state is in
 * the database, so it comes back on the next message as it was.
 */
import { type ActorOptions, SessionActor } from './actor.js';
import type { SessionDefaults, SessionStore } from './store.js';

export interface RegistryOptions extends ActorOptions {
  maxActors: number;
  idleMs: number;
}

export class SessionRegistry {
  /** In least-recently-used order: `get` moves an actor to the end. */
  private readonly actors = new Map<string, SessionActor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly store: SessionStore,
    private readonly options: RegistryOptions,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.min(options.idleMs, 30_000));
    this.sweeper.unref();
  }

  get size(): number {
    return this.actors.size;
  }

  /** The session object of `id` (a session key); `initial` is what a session created now starts with. */
  get(id: string, initial?: SessionDefaults): SessionActor {
    let actor = this.actors.get(id);
    if (actor) this.actors.delete(id);
    else actor = new SessionActor(id, this.store, this.options, initial);
    this.actors.set(id, actor);
    if (this.actors.size > this.options.maxActors) this.evictOverflow(actor);
    return actor;
  }

  /** Drops idle actors past the idle time. */
  sweep(now = Date.now()): void {
    for (const [id, actor] of this.actors) {
      if (!actor.busy && now - actor.lastUsed >= this.options.idleMs) this.actors.delete(id);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
    this.actors.clear();
  }

  private evictOverflow(keep: SessionActor): void {
    for (const [id, actor] of this.actors) {
      if (this.actors.size <= this.options.maxActors) return;
      if (!actor.busy && actor !== keep) this.actors.delete(id);
    }
  }
}
