/**
 * @module evaluation/metrics
 * Ranking metrics as trec_eval (and pytrec_eval, which BEIR uses) compute them, for
 * one query: `ranked` is the retrieved document ids, best first, each once;
 * `judged` maps document ids to their judgement score, where a score above 0 means
 * relevant and is the gain. Unjudged documents count as not relevant.
 */

export type Judged = ReadonlyMap<string, number>;

/** Above 0 is relevant; 0 and negative scores gain nothing (trec_eval's convention). */
const gain = (score: number | undefined) => (score !== undefined && score > 0 ? score : 0);

const discount = (rank: number) => Math.log2(rank + 1);

/** nDCG@k: Σ gain / log2(rank + 1) over the top k, divided by the same sum for the ideal order. */
export function ndcgAt(k: number, ranked: readonly string[], judged: Judged): number {
  let dcg = 0;
  for (const [i, id] of ranked.slice(0, k).entries()) dcg += gain(judged.get(id)) / discount(i + 1);
  const ideal = [...judged.values()]
    .map(gain)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  let idcg = 0;
  for (const [i, g] of ideal.entries()) idcg += g / discount(i + 1);
  return idcg > 0 ? dcg / idcg : 0;
}

/** MRR@k for one query: 1 / the rank of the first relevant document within the top k, else 0. */
export function reciprocalRankAt(k: number, ranked: readonly string[], judged: Judged): number {
  const rank = ranked.slice(0, k).findIndex((id) => gain(judged.get(id)) > 0);
  return rank >= 0 ? 1 / (rank + 1) : 0;
}

/** recall@k: the relevant documents retrieved in the top k over all relevant ones. */
export function recallAt(k: number, ranked: readonly string[], judged: Judged): number {
  let relevant = 0;
  for (const score of judged.values()) if (gain(score) > 0) relevant++;
  if (relevant === 0) return 0;
  const found = ranked.slice(0, k).filter((id) => gain(judged.get(id)) > 0).length;
  return found / relevant;
}

export interface QualityMetrics {
  ndcgAt10: number;
  mrrAt10: number;
  recallAt100: number;
}

/** The three figures the evaluation reports, for one query. */
export function queryMetrics(ranked: readonly string[], judged: Judged): QualityMetrics {
  return {
    ndcgAt10: ndcgAt(10, ranked, judged),
    mrrAt10: reciprocalRankAt(10, ranked, judged),
    recallAt100: recallAt(100, ranked, judged),
  };
}

/** The mean of each figure over the queries (0 when there are none). */
export function meanMetrics(perQuery: readonly QualityMetrics[]): QualityMetrics {
  const mean = (pick: (m: QualityMetrics) => number) =>
    perQuery.length ? perQuery.reduce((sum, m) => sum + pick(m), 0) / perQuery.length : 0;
  return {
    ndcgAt10: mean((m) => m.ndcgAt10),
    mrrAt10: mean((m) => m.mrrAt10),
    recallAt100: mean((m) => m.recallAt100),
  };
}

/** The median (p50) of a list of numbers; 0 for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
