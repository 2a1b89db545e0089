/**
 * @module auth/revocations
 * How a service learns, within a second, that identity took access away (a member
 * removed or their role changed, a user disabled, a service client revoked).
 *
 * Identity keeps a revocation epoch, a counter bumped in the same transaction as
 * every such change, and answers `GET /api/revocations/epoch?after=N` as a long-poll:
 * at once when the epoch is not N, else as soon as it changes (or after ~25 s). One
 * watch per process keeps that request open. When the epoch moves, every cache of
 * identity's answers in the process empties; while the watch has no live answer
 * (identity down or not reached yet), the caches are bypassed, so every check asks
 * identity (fail closed).
 */
import type { Logger } from '../logger.js';

export interface RevocationWatchOptions {
  identityUrl: string;
  logger?: Logger;
  /** How long one long-poll may stay open before it counts as lost; identity answers within ~25 s. */
  pollTimeoutMs?: number;
  /** The longest pause between attempts while identity cannot be reached. */
  maxRetryMs?: number;
}

const FIRST_RETRY_MS = 250;

export class RevocationWatch {
  private epoch: number | undefined;
  private connected = false;
  private running = false;
  private failures = 0;
  private inFlight: AbortController | undefined;
  private retry: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly options: RevocationWatchOptions) {}

  /** Whether cached answers may be used: identity answered the watch and its long-poll is open. */
  get trusted(): boolean {
    return this.connected;
  }

  /** The last epoch identity reported, if any. */
  get current(): number | undefined {
    return this.epoch;
  }

  /** Calls `listener` whenever access may have been taken away (and when the watch loses identity). */
  onRevocation(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start() {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  stop() {
    this.running = false;
    this.connected = false;
    this.inFlight?.abort();
    clearTimeout(this.retry);
    this.wake?.();
  }

  private revoked() {
    for (const listener of this.listeners) listener();
  }

  private async loop() {
    while (this.running) {
      try {
        const epoch = await this.poll();
        if (!this.running) return;
        if (this.failures > 0 && this.epoch !== undefined)
          this.options.logger?.info('revocation watch: identity answers again; caches in use');
        this.failures = 0;
        if (epoch !== this.epoch) {
          this.epoch = epoch;
          this.revoked();
        }
        this.connected = true;
      } catch {
        if (!this.running) return;
        if (this.connected)
          this.options.logger?.warn('revocation watch: identity cannot be reached; every check asks it');
        this.connected = false;
        this.revoked();
        this.failures++;
        await this.pause(
          Math.min(FIRST_RETRY_MS * 2 ** (this.failures - 1), this.options.maxRetryMs ?? 5000),
        );
      }
    }
  }

  private async poll(): Promise<number> {
    const controller = new AbortController();
    this.inFlight = controller;
    const query = this.epoch === undefined ? '' : `?after=${this.epoch}`;
    try {
      const response = await fetch(`${this.options.identityUrl}/api/revocations/epoch${query}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.any([
          controller.signal,
          AbortSignal.timeout(this.options.pollTimeoutMs ?? 35_000),
        ]),
      });
      if (!response.ok) throw new Error(`identity answered ${response.status}`);
      const { epoch } = (await response.json()) as { epoch?: unknown };
      if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch))
        throw new Error('no epoch in the answer');
      return epoch;
    } finally {
      this.inFlight = undefined;
    }
  }

  private pause(ms: number) {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.retry = setTimeout(resolve, ms);
      this.retry.unref();
    });
  }
}
