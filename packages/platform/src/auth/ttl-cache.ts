/**
 * @module auth/ttl-cache
 * The short caches a service keeps of identity's answers (sessions, service tokens,
 * memberships). Concurrent look-ups of one key share one promise and failures are not
 * kept. When a revocation watch is given, the cache empties whenever identity reports
 * that access was taken away, and is bypassed while the watch cannot vouch for it.
 */
import type { RevocationWatch } from './revocations.js';

interface Cached<T> {
  expires: number;
  value: Promise<T>;
}

export class TtlCache<T> {
  private readonly entries = new Map<string, Cached<T>>();

  constructor(
    private readonly ttlMs: number,
    private readonly options: { maxEntries?: number; revocations?: RevocationWatch | undefined } = {},
  ) {
    options.revocations?.onRevocation(() => this.clear());
  }

  get(key: string, load: () => Promise<T>): Promise<T> {
    const { revocations } = this.options;
    // A watch that is not connected cannot tell us of a revocation: ask every time.
    if (revocations && !revocations.trusted) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    const maxEntries = this.options.maxEntries ?? 10_000;
    if (this.entries.size >= maxEntries) {
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      // Still full: drop the oldest insertions (Map keeps insertion order).
      for (const k of this.entries.keys()) {
        if (this.entries.size < maxEntries) break;
        this.entries.delete(k);
      }
    }
    const value = load();
    const entry = { expires: now + this.ttlMs, value };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  get size(): number {
    return this.entries.size;
  }

  delete(key: string) {
    this.entries.delete(key);
  }

  clear() {
    this.entries.clear();
  }
}
