/**
 * @module commands/eval
 * `xv kb eval <collection-folder> [--split test] [--json]`: measures search quality
 * on a BEIR collection in a scratch knowledge base (nothing touches the service's
 * own database). The embedder comes from the knowledge settings, so setting
 * `XV_KB_EMBEDDINGS_URL` evaluates that endpoint. The verdict CI relies on: hybrid
 * search must not rank below lexical search on nDCG@10.
 */
import { loadSettings } from '@xv/platform';
import {
  type EvaluatedMethod,
  type EvaluationOptions,
  type EvaluationReport,
  runEvaluation,
} from '../evaluation/run.js';
import { knowledgeSettings } from '../settings.js';

export { CollectionError } from '../evaluation/beir.js';
export type { EvaluationOptions, EvaluationReport } from '../evaluation/run.js';

type Env = Record<string, string | undefined>;

export function evaluateCollection(
  folder: string,
  options: EvaluationOptions = {},
  env: Env = process.env,
): Promise<EvaluationReport> {
  return runEvaluation(folder, loadSettings(knowledgeSettings, env), options);
}

const LABELS: Record<EvaluatedMethod, string> = {
  bm25: 'BM25 (FTS5)',
  lexical: 'lexical',
  vector: 'vector',
  hybrid: 'hybrid',
};
const ROWS: EvaluatedMethod[] = ['bm25', 'lexical', 'vector', 'hybrid'];

const figure = (value: number) => value.toFixed(3);
const milliseconds = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;

/** The report as an aligned plain-text table. */
export function formatEvaluation(report: EvaluationReport): string {
  const { methods } = report;
  const label = Math.max(...ROWS.map((m) => LABELS[m].length)) + 2;
  const row = (name: string, cells: string[]) =>
    name.padEnd(label) + cells.map((c, i) => c.padStart(i === 0 ? 7 : i === 1 ? 8 : 12)).join('');
  return [
    `collection: ${report.collection} (${report.documents} documents, ${report.queries} queries, split ${report.split})`,
    `embedder: ${report.embedder} (${report.vectorBackend})`,
    `ingest: ${report.ingestSeconds.toFixed(1)} s; search p50: ${(['lexical', 'vector', 'hybrid'] as const)
      .map((m) => `${m} ${milliseconds(methods[m].p50Ms)}`)
      .join(', ')}, BM25 ${milliseconds(methods.bm25.p50Ms)}`,
    row('', ['nDCG@10', 'MRR@10', 'recall@100']),
    ...ROWS.map((m) =>
      row(LABELS[m], [
        figure(methods[m].ndcgAt10),
        figure(methods[m].mrrAt10),
        figure(methods[m].recallAt100),
      ]),
    ),
  ].join('\n');
}

/** The report as one JSON object (figures rounded to 4 places, times to 0.01 ms). */
export function evaluationJson(report: EvaluationReport): string {
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  const methods = Object.fromEntries(
    ROWS.map((m) => {
      const r = report.methods[m];
      return [
        m,
        {
          ndcgAt10: round(r.ndcgAt10, 4),
          mrrAt10: round(r.mrrAt10, 4),
          recallAt100: round(r.recallAt100, 4),
          p50Ms: round(r.p50Ms, 2),
        },
      ];
    }),
  );
  return JSON.stringify({
    collection: report.collection,
    split: report.split,
    documents: report.documents,
    queries: report.queries,
    embedder: report.embedder,
    vectorBackend: report.vectorBackend,
    ingestSeconds: round(report.ingestSeconds, 2),
    ...methods,
    warnings: report.warnings,
  });
}

/** Why the run fails CI, compared at the printed precision; undefined when it passes. */
export function evaluationFailure(report: EvaluationReport): string | undefined {
  const hybrid = figure(report.methods.hybrid.ndcgAt10);
  const lexical = figure(report.methods.lexical.ndcgAt10);
  return Number(hybrid) < Number(lexical)
    ? `hybrid ranks below lexical (nDCG@10 ${hybrid} < ${lexical})`
    : undefined;
}
