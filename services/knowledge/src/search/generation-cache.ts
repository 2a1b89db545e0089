/**
 * @module search/generation-cache
 * Figures computed from the index (how many chunks, how common a word) that stay
 * true until the index generation moves. Every change to the index moves it, from
 * any instance sharing the database, so a cached figure is never older than the
 * index it describes.
 */
export class GenerationCache<V> {
  private generation: string | undefined;
  private readonly values = new Map<string, V>();

  /** `limit` bounds the entries kept for one generation (past it, the cache starts over). */
  constructor(private readonly limit = 10_000) {}

  async get(generation: string, key: string, compute: () => Promise<V>): Promise<V> {
    if (generation !== this.generation) {
      this.values.clear();
      this.generation = generation;
    }
    const cached = this.values.get(key);
    if (cached !== undefined) return cached;
    const value = await compute();
    if (this.generation === generation) {
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
