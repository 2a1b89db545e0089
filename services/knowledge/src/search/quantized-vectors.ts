/**
 * @module search/quantized-vectors
 * One organization's embeddings in memory, for the first pass of approximate
 * nearest-neighbour search. Each vector is quantised to int8 with its own scale
 * (its largest |component| maps to 127), and the matrix is stored
 * dimension-major: every chunk's value of dimension 0, then of dimension 1, and
 * so on. Nothing is trained from the data, so nothing goes stale as it grows:
 * adding or removing a vector writes one entry per dimension.
 *
 * A query is scored dimension by dimension, over its heaviest dimensions only:
 * those that hold `queryMass` of its squared norm. The offline embedder's
 * questions are sparse (about 45 of 384 dimensions set, 8 of them holding 80% of
 * the norm), so this pass reads a few percent of the matrix; a dense query reads
 * more of it, never more than all. The best candidates by this estimate are then
 * re-ranked exactly by the caller, with the stored float32 vectors.
 */

export class QuantizedVectors {
  private capacity: number;
  private values: Int8Array;
  private scales: Float32Array;
  private chunkIds: Float64Array;
  private scores: Float64Array;
  private readonly slots = new Map<number, number>();

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.capacity = capacity;
    this.values = new Int8Array(capacity * dimensions);
    this.scales = new Float32Array(capacity);
    this.chunkIds = new Float64Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  get size(): number {
    return this.slots.size;
  }

  /** Memory held by the arrays (they grow by doubling, so up to twice what `size` needs). */
  get bytes(): number {
    return (
      this.values.byteLength + this.scales.byteLength + this.chunkIds.byteLength + this.scores.byteLength
    );
  }

  has(chunkId: number): boolean {
    return this.slots.has(chunkId);
  }

  ids(): IterableIterator<number> {
    return this.slots.keys();
  }

  /** Adds vectors, or replaces those stored for the same chunks. */
  add(batch: { chunkId: number; vector: Float32Array }[]): void {
    const dimensions = this.dimensions;
    const slots = new Int32Array(batch.length);
    const toInt = new Float64Array(batch.length);
    for (let j = 0; j < batch.length; j++) {
      const { chunkId, vector } = batch[j]!;
      if (vector.length !== dimensions) throw new Error('vector dimension mismatch');
      let slot = this.slots.get(chunkId);
      if (slot === undefined) {
        if (this.size === this.capacity) this.grow();
        slot = this.size;
        this.slots.set(chunkId, slot);
        this.chunkIds[slot] = chunkId;
      }
      let largest = 0;
      for (let d = 0; d < dimensions; d++) largest = Math.max(largest, Math.abs(vector[d]!));
      this.scales[slot] = largest / 127;
      toInt[j] = largest > 0 ? 127 / largest : 0;
      slots[j] = slot;
    }
    // Quantised row by row, then written dimension by dimension: both passes stay sequential.
    // (Math.floor(x + 0.5) rounds; Math.round is several times slower in V8.)
    const rows = new Int8Array(batch.length * dimensions);
    for (let j = 0; j < batch.length; j++) {
      const vector = batch[j]!.vector;
      const scale = toInt[j]!;
      for (let d = 0; d < dimensions; d++) rows[j * dimensions + d] = Math.floor(vector[d]! * scale + 0.5);
    }
    for (let d = 0; d < dimensions; d++) {
      const column = d * this.capacity;
      for (let j = 0; j < batch.length; j++) this.values[column + slots[j]!] = rows[j * dimensions + d]!;
    }
  }

  /** Drops the given chunks (those held), without visiting the others when they are few. */
  drop(chunkIds: Iterable<number>): void {
    const leaving = [...chunkIds].filter((id) => this.slots.has(id));
    if (leaving.length * 16 <= this.size) for (const id of leaving) this.remove(id);
    else {
      const gone = new Set(leaving);
      this.retain((id) => !gone.has(id));
    }
  }

  /** Keeps only the chunks `keep` accepts. */
  retain(keep: (chunkId: number) => boolean): void {
    const leaving = [...this.slots.keys()].filter((id) => !keep(id));
    if (leaving.length === 0) return;
    if (leaving.length * 16 <= this.size) {
      // A few: the last vector moves into each hole (one write per dimension).
      for (const id of leaving) this.remove(id);
      return;
    }
    // Many (a reindex): the survivors move down in order, each to a lower or the same slot, so one forward
    // pass per dimension is safe.
    const from: number[] = [];
    for (let slot = 0; slot < this.size; slot++) if (keep(this.chunkIds[slot]!)) from.push(slot);
    for (let d = 0; d < this.dimensions; d++) {
      const column = d * this.capacity;
      for (const [to, slot] of from.entries()) this.values[column + to] = this.values[column + slot]!;
    }
    this.slots.clear();
    for (const [to, slot] of from.entries()) {
      this.scales[to] = this.scales[slot]!;
      this.chunkIds[to] = this.chunkIds[slot]!;
      this.slots.set(this.chunkIds[to]!, to);
    }
  }

  private remove(chunkId: number): void {
    const slot = this.slots.get(chunkId)!;
    this.slots.delete(chunkId);
    const last = this.size; // after the deletion: the last slot in use
    if (slot === last) return;
    for (let d = 0; d < this.dimensions; d++)
      this.values[d * this.capacity + slot] = this.values[d * this.capacity + last]!;
    this.scales[slot] = this.scales[last]!;
    this.chunkIds[slot] = this.chunkIds[last]!;
    this.slots.set(this.chunkIds[slot]!, slot);
  }

  /**
   * The `count` chunks with the highest estimated dot product with `query`
   * (every chunk when there are no more than that), in no particular order.
   */
  candidates(query: Float32Array, count: number, queryMass: number): number[] {
    const n = this.size;
    if (n <= count) return Array.from(this.chunkIds.subarray(0, n));
    const dimensions = Array.from(query.keys())
      .filter((d) => query[d] !== 0)
      .sort((a, b) => Math.abs(query[b]!) - Math.abs(query[a]!));
    let norm = 0;
    for (const v of query) norm += v * v;
    const scores = this.scores.subarray(0, n).fill(0);
    let covered = 0;
    for (const d of dimensions) {
      if (covered >= queryMass * norm) break;
      const w = query[d]!;
      covered += w * w;
      const column = this.values.subarray(d * this.capacity, d * this.capacity + n);
      for (let i = 0; i < n; i++) scores[i]! += w * column[i]!;
    }
    for (let i = 0; i < n; i++) scores[i]! *= this.scales[i]!;
    return Array.from(largest(scores, count), (slot) => this.chunkIds[slot]!);
  }

  private grow() {
    const capacity = this.capacity * 2;
    const values = new Int8Array(capacity * this.dimensions);
    for (let d = 0; d < this.dimensions; d++)
      values.set(this.values.subarray(d * this.capacity, d * this.capacity + this.size), d * capacity);
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    const chunkIds = new Float64Array(capacity);
    chunkIds.set(this.chunkIds);
    this.values = values;
    this.scales = scales;
    this.chunkIds = chunkIds;
    this.scores = new Float64Array(capacity);
    this.capacity = capacity;
  }
}

/** Indices of the `count` largest values (a min-heap of the best so far). */
function largest(values: Float64Array, count: number): Int32Array {
  const heap = new Int32Array(count);
  let size = 0;
  const less = (a: number, b: number) => values[heap[a]!]! < values[heap[b]!]!;
  const swap = (a: number, b: number) => {
    const t = heap[a]!;
    heap[a] = heap[b]!;
    heap[b] = t;
  };
  for (let i = 0; i < values.length; i++) {
    if (size < count) {
      heap[size] = i;
      for (let at = size++; at > 0 && less(at, (at - 1) >> 1); at = (at - 1) >> 1) swap(at, (at - 1) >> 1);
    } else if (values[i]! > values[heap[0]!]!) {
      heap[0] = i;
      for (let at = 0; ; ) {
        const left = 2 * at + 1;
        const right = left + 1;
        let min = at;
        if (left < size && less(left, min)) min = left;
        if (right < size && less(right, min)) min = right;
        if (min === at) break;
        swap(at, min);
        at = min;
      }
    }
  }
  return heap.subarray(0, size);
}
