/**
 * @module bench/lib/knowledge-reference
 * The exact nearest chunks of a fixed set of questions, kept up to date as
 * chunks are generated: each batch is scanned once against every question, and
 * the batch can then be let go. A dot product needs only the question's
 * non-zero dimensions (the offline embedder's questions set about 45 of 384),
 * so the result is exact at a fraction of a dense scan's cost. Distances are
 * cosine distances of unit vectors (1 − dot), as the service's.
 */
export class ExactReference {
  private readonly dims: Int32Array[];
  private readonly weights: Float64Array[];
  /** Per question, the best `k` so far: ids and distances, nearest first. */
  private readonly best: { ids: number[]; distances: number[] }[];

  constructor(
    questions: Float32Array[],
    private readonly k: number,
  ) {
    this.dims = questions.map((q) => Int32Array.from(q.keys()).filter((d) => q[d] !== 0));
    this.weights = questions.map((q, i) => Float64Array.from(this.dims[i]!, (d) => q[d]!));
    this.best = questions.map(() => ({ ids: [], distances: [] }));
  }

  add(chunks: { id: number; vector: Float32Array }[]): void {
    for (const [q, best] of this.best.entries()) {
      const dims = this.dims[q]!;
      const weights = this.weights[q]!;
      for (const { id, vector } of chunks) {
        let dot = 0;
        for (let j = 0; j < dims.length; j++) dot += vector[dims[j]!]! * weights[j]!;
        const distance = 1 - dot;
        const { ids, distances } = best;
        if (ids.length === this.k && distance >= distances[this.k - 1]!) continue;
        let at = distances.length;
        while (at > 0 && distances[at - 1]! > distance) at--;
        ids.splice(at, 0, id);
        distances.splice(at, 0, distance);
        if (ids.length > this.k) {
          ids.pop();
          distances.pop();
        }
      }
    }
  }

  /** Share of question `q`'s exact top `k` found in `found`. */
  recall(q: number, found: number[], k: number): number {
    const expected = this.best[q]!.ids.slice(0, k);
    if (expected.length === 0) return 1;
    const set = new Set(found);
    return expected.filter((id) => set.has(id)).length / expected.length;
  }
}
