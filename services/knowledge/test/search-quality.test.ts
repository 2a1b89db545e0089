/**
 * The quality bar, on the collection the project ships
 * (bench/collections/xv-handbook: English and Vietnamese handbook documents and
 * questions, typed with and without diacritics): evaluated by `xv kb eval`'s own
 * code, hybrid search ranks at least as well as lexical search, which ranks at
 * least as well as plain BM25 over the same documents (SQLite FTS5 `bm25()`),
 * on nDCG@10. CI also runs the command itself on the collection.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { evaluateCollection } from '../src/commands/eval.js';
import type { EvaluationReport } from '../src/evaluation/run.js';

const COLLECTION = fileURLToPath(new URL('../../../bench/collections/xv-handbook', import.meta.url));

describe('search quality on the shipped collection', () => {
  let report: EvaluationReport;
  beforeAll(async () => {
    report = await evaluateCollection(COLLECTION, {}, {});
  }, 120_000);

  it('ranks hybrid ≥ lexical ≥ BM25 on nDCG@10', () => {
    const { bm25, lexical, hybrid } = report.methods;
    expect(lexical.ndcgAt10).toBeGreaterThanOrEqual(bm25.ndcgAt10);
    expect(hybrid.ndcgAt10).toBeGreaterThanOrEqual(lexical.ndcgAt10);
  });

  it('ranks well above BM25 on the first answer', () => {
    expect(report.methods.hybrid.mrrAt10).toBeGreaterThan(report.methods.bm25.mrrAt10 + 0.02);
  });
});
