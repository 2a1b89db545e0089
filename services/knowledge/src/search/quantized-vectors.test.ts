import { describe, expect, it } from 'vitest';
import { OfflineEmbedder } from './embedder.js';
import { QuantizedVectors } from './quantized-vectors.js';
import { scanNearest } from './vector-index.js';

const embedder = new OfflineEmbedder(64);
const TOPICS = 'invoice travel leave laptop payroll refund badge backup audit privacy hotel budget'.split(
  ' ',
);
const text = (i: number) =>
  `${TOPICS[i % TOPICS.length]} ${TOPICS[(i * 7) % TOPICS.length]} note ${i} about item${i % 23}`;

function corpus(n: number) {
  const ids = Array.from({ length: n }, (_, i) => 1000 + i);
  const vectors = ids.map((_, i) => embedder.embedOne(text(i)));
  const matrix = new Float32Array(n * 64);
  vectors.forEach((v, i) => {
    matrix.set(v, i * 64);
  });
  return { ids, vectors, matrix };
}

describe('QuantizedVectors', () => {
  it('finds the exact top 10 among its candidates when the first pass reads every query dimension', () => {
    const { ids, vectors, matrix } = corpus(3000); // grows past the initial capacity twice
    const index = new QuantizedVectors(64);
    index.add(ids.map((chunkId, i) => ({ chunkId, vector: vectors[i]! })));
    expect(index.size).toBe(3000);
    for (const q of ['travel hotel budget', 'laptop backup item7', 'refund privacy note']) {
      const query = embedder.embedOne(q);
      const exact = scanNearest(ids, matrix, 64, query, 10).map((n) => n.chunkId);
      const candidates = new Set(index.candidates(query, 100, 1));
      expect(candidates.size).toBe(100);
      // int8 rounding moves estimates by far less than the gap between the 10th and the 100th neighbour
      for (const id of exact) expect(candidates.has(id), `${q}: ${id}`).toBe(true);
    }
  });

  it('returns every chunk when there are no more than asked for', () => {
    const index = new QuantizedVectors(64, 4);
    const { ids, vectors } = corpus(3);
    index.add(ids.map((chunkId, i) => ({ chunkId, vector: vectors[i]! })));
    expect(index.candidates(embedder.embedOne('anything'), 10, 0.8).sort()).toEqual(ids);
  });

  it('drops what it is told to drop, keeps the rest findable, and replaces a re-added chunk', () => {
    const { ids, vectors } = corpus(50);
    const index = new QuantizedVectors(64, 8);
    index.add(ids.map((chunkId, i) => ({ chunkId, vector: vectors[i]! })));
    // Many leave at once (moved down in order), then a few (holes filled from the end).
    const gone = new Set(ids.filter((id) => id % 3 === 0));
    index.retain((id) => !gone.has(id));
    expect(index.size).toBe(50 - gone.size);
    for (const id of [1001, 1049]) gone.add(id);
    index.retain((id) => !gone.has(id));
    expect(index.size).toBe(50 - gone.size);
    expect([...index.ids()].sort()).toEqual(ids.filter((id) => !gone.has(id)));
    for (const [i, id] of ids.entries()) {
      if (gone.has(id)) continue;
      // Each survivor is still its own nearest neighbour: its values moved with it.
      expect(index.candidates(vectors[i]!, 1, 1)).toEqual([id]);
    }
    // Re-adding a chunk replaces its vector instead of adding a second one.
    const survivor = ids.find((id) => !gone.has(id))!;
    const other = embedder.embedOne('completely different words entirely');
    index.add([{ chunkId: survivor, vector: other }]);
    expect(index.size).toBe(50 - gone.size);
    expect(index.candidates(other, 1, 1)).toEqual([survivor]);
  });

  it('refuses a vector of another dimension', () => {
    const index = new QuantizedVectors(64);
    expect(() => index.add([{ chunkId: 1, vector: new Float32Array(32) }])).toThrow(/dimension/);
  });
});
