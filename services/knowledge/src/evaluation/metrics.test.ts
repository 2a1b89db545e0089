/**
 * The ranking metrics against values worked out by hand (trec_eval's definitions:
 * linear gain, discount log2(rank + 1), ideal DCG from the query's judgements).
 */
import { describe, expect, it } from 'vitest';
import { meanMetrics, median, ndcgAt, queryMetrics, recallAt, reciprocalRankAt } from './metrics.js';

// d1 is very relevant (2), d2 and d4 relevant (1), d3 judged not relevant (0).
const judged = new Map([
  ['d1', 2],
  ['d2', 1],
  ['d3', 0],
  ['d4', 1],
]);
// Rank 1 an unjudged document, rank 2 d2, rank 3 d1, rank 4 d3; d4 is not retrieved.
const ranked = ['x', 'd2', 'd1', 'd3'];

describe('nDCG', () => {
  it('weighs each gain by 1 / log2(rank + 1) against the ideal order', () => {
    // DCG = 0/1 + 1/log2(3) + 2/log2(4) + 0/log2(5) = 0.63093 + 1 = 1.63093
    // ideal = 2/1 + 1/log2(3) + 1/log2(4) = 2 + 0.63093 + 0.5 = 3.13093
    expect(ndcgAt(10, ranked, judged)).toBeCloseTo(1.63093 / 3.13093, 4); // 0.52091
  });

  it('is 1 for the ideal order and 0 when nothing relevant is retrieved', () => {
    expect(ndcgAt(10, ['d1', 'd2', 'd4', 'd3'], judged)).toBeCloseTo(1, 10);
    expect(ndcgAt(10, ['d1', 'd4', 'd2'], judged)).toBeCloseTo(1, 10); // equal gains swap freely
    expect(ndcgAt(10, ['d3', 'x'], judged)).toBe(0);
    expect(ndcgAt(10, [], judged)).toBe(0);
  });

  it('cuts both the ranking and the ideal at k', () => {
    // @1: DCG = 1 (d2), ideal = 2 (d1).
    expect(ndcgAt(1, ['d2', 'd1'], judged)).toBeCloseTo(0.5, 10);
    // @2 with the very relevant document at rank 3: DCG = 1/log2(3) = 0.63093; ideal = 2 + 0.63093.
    expect(ndcgAt(2, ['x', 'd2', 'd1'], judged)).toBeCloseTo(0.63093 / 2.63093, 4);
  });

  it('counts a negative judgement as no gain', () => {
    const withNegative = new Map([
      ['a', 1],
      ['b', -1],
    ]);
    // DCG = 0 + 1/log2(3); ideal = 1.
    expect(ndcgAt(10, ['b', 'a'], withNegative)).toBeCloseTo(0.63093, 4);
  });
});

describe('MRR', () => {
  it('is 1 / the rank of the first relevant document within k', () => {
    expect(reciprocalRankAt(10, ranked, judged)).toBe(0.5);
    expect(reciprocalRankAt(10, ['d3', 'x', 'd4'], judged)).toBeCloseTo(1 / 3, 10); // d3 scores 0
    expect(reciprocalRankAt(1, ranked, judged)).toBe(0);
    const late = [...Array.from({ length: 10 }, (_, i) => `x${i}`), 'd1'];
    expect(reciprocalRankAt(10, late, judged)).toBe(0); // rank 11
  });
});

describe('recall', () => {
  it('is the share of the relevant documents retrieved within k', () => {
    expect(recallAt(100, ranked, judged)).toBeCloseTo(2 / 3, 10); // d1, d2 of d1, d2, d4
    expect(recallAt(2, ranked, judged)).toBeCloseTo(1 / 3, 10);
    expect(recallAt(100, ['d1', 'd2', 'd4'], judged)).toBe(1);
    expect(recallAt(100, ['d1'], new Map([['d1', 0]]))).toBe(0); // nothing relevant to find
  });
});

describe('averages', () => {
  it('reports the three figures of a query and their mean over queries', () => {
    const first = queryMetrics(ranked, judged);
    expect(first.ndcgAt10).toBeCloseTo(0.52091, 4);
    expect(first.mrrAt10).toBe(0.5);
    expect(first.recallAt100).toBeCloseTo(2 / 3, 10);
    const perfect = queryMetrics(['d1', 'd2', 'd4'], judged);
    const mean = meanMetrics([first, perfect]);
    expect(mean.ndcgAt10).toBeCloseTo((0.52091 + 1) / 2, 4);
    expect(mean.mrrAt10).toBe(0.75);
    expect(mean.recallAt100).toBeCloseTo(5 / 6, 10);
    expect(meanMetrics([])).toEqual({ ndcgAt10: 0, mrrAt10: 0, recallAt100: 0 });
  });

  it('takes the median of search times', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBe(0);
  });
});
