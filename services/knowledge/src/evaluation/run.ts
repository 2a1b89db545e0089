/**
 * @module evaluation/run
 * Measures the knowledge base's search on a BEIR collection: the corpus goes into
 * a scratch knowledge base (and into the BM25 baseline), every judged question is
 * asked in each retrieval mode with the top 100 documents kept, and nDCG@10,
 * MRR@10 and recall@100 are averaged over the questions, with the median time of
 * one search.
 *
 * Only questions with at least one judgement above 0 for a document of the corpus
 * are evaluated (as BEIR does). Each one counts, also when a method finds nothing
 * for it (it scores 0 there).
 */
import type { RetrievalMode } from '../search/knowledge-index.js';
import type { KnowledgeSettings } from '../settings.js';
import {
  CollectionError,
  type CorpusEntry,
  collectionFiles,
  type Judgements,
  readCorpus,
  readJudgements,
  readQueries,
} from './beir.js';
import { Bm25Baseline } from './bm25-baseline.js';
import { type Judged, meanMetrics, median, type QualityMetrics, queryMetrics } from './metrics.js';
import { ScratchKnowledgeBase } from './scratch.js';

export type EvaluatedMethod = 'bm25' | RetrievalMode;
export const RETRIEVAL_MODES: readonly RetrievalMode[] = ['lexical', 'vector', 'hybrid'];

export interface MethodResult extends QualityMetrics {
  /** The median time of one search, in milliseconds. */
  p50Ms: number;
}

export interface EvaluationReport {
  collection: string;
  split: string;
  documents: number;
  queries: number;
  embedder: string;
  vectorBackend: string;
  ingestSeconds: number;
  methods: Record<EvaluatedMethod, MethodResult>;
  /** What was skipped in the collection (judgements of unknown ids, duplicate documents). */
  warnings: string[];
}

export interface EvaluationOptions {
  /** The qrels file read: `qrels/<split>.tsv` (default `test`). */
  split?: string;
  /** Documents indexed per transaction (default 500). */
  batchSize?: number;
}

/** Documents retrieved per question: recall is measured at 100. */
const DEPTH = 100;

interface Question {
  id: string;
  text: string;
  judged: Judged;
}

export async function runEvaluation(
  folder: string,
  config: KnowledgeSettings,
  options: EvaluationOptions = {},
): Promise<EvaluationReport> {
  const split = options.split ?? 'test';
  const files = await collectionFiles(folder, split);
  const judgements = await readJudgements(files.qrels);
  const judgedQueries = new Set([...judgements].filter(([, j]) => hasRelevant(j)).map(([id]) => id));
  const texts = await readQueries(files.queries, judgedQueries);

  const scratch = await ScratchKnowledgeBase.open(config);
  const baseline = new Bm25Baseline();
  try {
    const started = performance.now();
    const { corpusIds, duplicates } = await ingest(files.corpus, scratch, baseline, options.batchSize ?? 500);
    const ingestSeconds = (performance.now() - started) / 1000;
    if (corpusIds.size === 0) throw new CollectionError(`${files.corpus}: no documents`);

    const warnings: string[] = [];
    if (duplicates.length)
      warnings.push(`${files.corpus}: ${describe(duplicates, 'repeated document id')} skipped`);
    const questions = evaluatedQuestions(judgements, texts, corpusIds, files, warnings);
    if (questions.length === 0)
      throw new CollectionError(
        `${files.qrels}: no question has a judgement above 0 for a document of the corpus`,
      );

    const methods = {} as Record<EvaluatedMethod, MethodResult>;
    methods.bm25 = await measure(questions, async (q) => baseline.search(q, DEPTH));
    for (const mode of RETRIEVAL_MODES)
      methods[mode] = await measure(questions, (q) => scratch.search(q, mode, DEPTH));
    return {
      collection: folder,
      split,
      documents: corpusIds.size,
      queries: questions.length,
      embedder: scratch.index.embedder.fingerprint,
      vectorBackend: scratch.index.vectors.backend,
      ingestSeconds,
      methods,
      warnings,
    };
  } finally {
    baseline.close();
    await scratch.close();
  }
}

const hasRelevant = (judged: Judged) => [...judged.values()].some((score) => score > 0);

/** Streams the corpus into the scratch knowledge base and the baseline, a batch at a time. */
async function ingest(file: string, scratch: ScratchKnowledgeBase, baseline: Bm25Baseline, size: number) {
  const corpusIds = new Set<string>();
  const duplicates: string[] = [];
  let batch: CorpusEntry[] = [];
  const flush = async () => {
    await scratch.add(batch);
    baseline.add(batch.map((e) => ({ id: e.id, title: e.title, text: e.text })));
    batch = [];
  };
  for await (const entry of readCorpus(file)) {
    if (corpusIds.has(entry.id)) {
      duplicates.push(entry.id);
      continue;
    }
    corpusIds.add(entry.id);
    batch.push(entry);
    if (batch.length >= size) await flush();
  }
  if (batch.length) await flush();
  return { corpusIds, duplicates };
}

/** The judged questions, without the judgements that name ids the collection lacks (each kind warned once). */
function evaluatedQuestions(
  judgements: Judgements,
  texts: ReadonlyMap<string, string>,
  corpusIds: ReadonlySet<string>,
  files: { qrels: string; queries: string; corpus: string },
  warnings: string[],
): Question[] {
  const unknownQueries: string[] = [];
  const unknownDocuments: string[] = [];
  const questions: Question[] = [];
  for (const [queryId, judged] of judgements) {
    if (!hasRelevant(judged)) continue;
    const text = texts.get(queryId);
    if (text === undefined) {
      unknownQueries.push(queryId);
      continue;
    }
    const known = new Map<string, number>();
    for (const [docId, score] of judged) {
      if (corpusIds.has(docId)) known.set(docId, score);
      else unknownDocuments.push(docId);
    }
    if (hasRelevant(known)) questions.push({ id: queryId, text, judged: known });
  }
  if (unknownQueries.length)
    warnings.push(`${files.qrels}: ${describe(unknownQueries, 'query id')} not in ${files.queries}; skipped`);
  if (unknownDocuments.length)
    warnings.push(
      `${files.qrels}: ${describe(unknownDocuments, 'judged document id')} not in ${files.corpus}; skipped`,
    );
  return questions;
}

/** "3 query ids (q7, q9, q12)", naming at most five. */
function describe(ids: readonly string[], noun: string): string {
  const shown = ids.slice(0, 5).join(', ');
  return `${ids.length} ${noun}${ids.length === 1 ? '' : 's'} (${shown}${ids.length > 5 ? ', …' : ''})`;
}

async function measure(
  questions: readonly Question[],
  search: (question: string) => Promise<string[]>,
): Promise<MethodResult> {
  const perQuery: QualityMetrics[] = [];
  const times: number[] = [];
  for (const question of questions) {
    const started = performance.now();
    const ranked = await search(question.text);
    times.push(performance.now() - started);
    perQuery.push(queryMetrics(ranked, question.judged));
  }
  return { ...meanMetrics(perQuery), p50Ms: median(times) };
}
