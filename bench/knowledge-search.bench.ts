/**
 * Knowledge base search quality on SQLite at 100k chunks in one organization
 * (how latency and the other costs grow from 10k to 1M, on SQLite and
 * PostgreSQL, is the knowledge-scale benchmark):
 * hybrid (the path `POST /api/ai/search` takes, minus HTTP: lexical candidates
 * ranked by the service, offline vectors gated behind them), its lexical and
 * vector halves, against references run in the same process on the same data:
 * - the reference: the same search without the large-organization shortcuts
 *   (every question word in the candidate query, sqlite-vec's exact KNN);
 * - exact vectors: the same search with an exact vector scan only;
 * - a brute-force scan of the same vectors in memory.
 * Figures: latency percentiles; the approximate vector search's recall@10 and
 * recall@40 against the brute-force scan; how many of each reference's top
 * documents are still found (top 10 lexical, top 5 hybrid, top 5 vector); the
 * approximate index's load and update times and memory. The synthetic corpus is
 * bench/lib/knowledge-corpus.ts, inserted in one transaction. Latencies are
 * measured in-process (no HTTP), one query at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Database, loadSettings, migrate, openDatabase } from '@xv/platform';
import type { KnowledgeDatabase } from '../services/knowledge/src/db.js';
import { migrations } from '../services/knowledge/src/migrations/index.js';
import { ChangeLog } from '../services/knowledge/src/search/change-log.js';
import { vectorToBytes } from '../services/knowledge/src/search/embedder.js';
import type { KnowledgeIndex, SearchHit } from '../services/knowledge/src/search/knowledge-index.js';
import { openKnowledgeIndex } from '../services/knowledge/src/search/open-index.js';
import {
  loadVectorExtension,
  type SqliteVecIndex,
  scanNearest,
} from '../services/knowledge/src/search/vector-index.js';
import { knowledgeSettings } from '../services/knowledge/src/settings.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';
import { random, seedSqlite, syntheticChunks, syntheticText } from './lib/knowledge-corpus.js';

const ORG = 'org_bench';
const QUERIES = 200;
/** How deep hybrid search asks each half for topK ≤ 10: max(4·topK, 40). */
const DEPTH = 40;

interface Corpus {
  database: KnowledgeDatabase;
  index: KnowledgeIndex;
  /** The same database searched with every query word and sqlite-vec's exact KNN. */
  reference: KnowledgeIndex;
  /** The same database searched with the default lexical query and an exact vector scan. */
  exactVectors: KnowledgeIndex;
  ids: number[];
  matrix: Float32Array;
  dimensions: number;
  dir: string;
}

async function buildCorpus(chunks: number, dimensions: number): Promise<Corpus & { buildSeconds: number }> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'xv-bench-kb-'));
  const opened = await openDatabase({ service: 'knowledge', dataDir: dir });
  loadVectorExtension(opened);
  await migrate(opened as Database, migrations);
  const database = opened as unknown as KnowledgeDatabase;
  const config = loadSettings(knowledgeSettings, { XV_KB_EMBEDDING_DIMENSIONS: String(dimensions) });
  const index = await openKnowledgeIndex(database, config, createLogger('kb', 'silent'));
  const reference = await openKnowledgeIndex(database, config, createLogger('kb', 'silent'), {
    pruneFrom: Number.POSITIVE_INFINITY,
    approximateFrom: Number.POSITIVE_INFINITY,
  });
  const exactVectors = await openKnowledgeIndex(database, config, createLogger('kb', 'silent'), {
    approximateFrom: Number.POSITIVE_INFINITY,
  });
  const embedder = index.embedder as unknown as { embedOne(text: string): Float32Array };
  await index.vectors.prepare(database.kysely, dimensions);
  opened
    .sqlite!.prepare(
      "insert or replace into index_state (key, value) values ('embedder', ?), ('dimensions', ?), ('generation', 'g1')",
    )
    .run(index.embedder.fingerprint, String(dimensions));
  const corpus = syntheticChunks(embedder, 0, chunks);
  seedSqlite(database, ORG, corpus);
  const ids = corpus.map((c) => c.id);
  const matrix = new Float32Array(chunks * dimensions);
  for (const [i, c] of corpus.entries()) matrix.set(c.vector, i * dimensions);
  return {
    database,
    index,
    reference,
    exactVectors,
    ids,
    matrix,
    dimensions,
    dir,
    buildSeconds: (performance.now() - started) / 1000,
  };
}

async function time<T>(samples: number[], work: () => Promise<T> | T): Promise<T> {
  const started = performance.now();
  const result = await work();
  samples.push(performance.now() - started);
  return result;
}

/** Share of `expected` found in `actual`. */
function overlap<T>(actual: T[], expected: T[]): number {
  if (expected.length === 0) return 1;
  const found = new Set(actual);
  return expected.filter((x) => found.has(x)).length / expected.length;
}

const hitKey = (h: SearchHit) => h.docId;

async function measure(chunks: number, dimensions: number) {
  const corpus = await buildCorpus(chunks, dimensions);
  const { index, reference, exactVectors } = corpus;
  const vectors = index.vectors as SqliteVecIndex;
  try {
    const next = random(42);
    const queries = Array.from({ length: QUERIES }, () => syntheticText(next, 6));
    const embedded = await index.embedder.embed(queries);
    const latency = {
      hybrid: [] as number[],
      lexical: [] as number[],
      vector: [] as number[],
      approximate: [] as number[],
      reference: [] as number[],
      exact: [] as number[],
      scan: [] as number[],
    };
    const loadStarted = performance.now();
    await vectors.nearest(ORG, embedded[0]!, DEPTH, 'g1'); // loads the organization's vectors into memory
    const loadMs = performance.now() - loadStarted;
    for (const q of queries.slice(0, 20)) {
      await index.search(ORG, q, 5);
      await reference.search(ORG, q, 5);
    }
    const agreement = { recall10: 0, recall40: 0, lexical10: 0, hybrid5: 0, vector5: 0, hybrid5Vectors: 0 };
    for (const [i, q] of queries.entries()) {
      const query = embedded[i]!;
      const hits = await time(latency.hybrid, () => index.search(ORG, q, 5));
      const expectedHits = await time(latency.reference, () => reference.search(ORG, q, 5));
      agreement.hybrid5 += overlap(hits.map(hitKey), expectedHits.map(hitKey));
      const vectorHits = await time(latency.vector, () => index.search(ORG, q, 5, 'vector'));
      agreement.vector5 += overlap(
        vectorHits.map(hitKey),
        (await exactVectors.search(ORG, q, 5, 'vector')).map(hitKey),
      );
      agreement.hybrid5Vectors += overlap(
        hits.map(hitKey),
        (await exactVectors.search(ORG, q, 5)).map(hitKey),
      );
      const lexical = await time(latency.lexical, () => index.search(ORG, q, 10, 'lexical'));
      const fullLexical = await reference.search(ORG, q, 10, 'lexical');
      agreement.lexical10 += overlap(lexical.map(hitKey), fullLexical.map(hitKey));
      const approximate = await time(latency.approximate, () => vectors.nearest(ORG, query, DEPTH, 'g1'));
      await time(latency.exact, () => vectors.exactNearest(ORG, query, DEPTH));
      const exact = await time(latency.scan, () =>
        scanNearest(corpus.ids, corpus.matrix, corpus.dimensions, query, DEPTH),
      );
      const ids = (list: { chunkId: number }[], k: number) => list.slice(0, k).map((n) => n.chunkId);
      agreement.recall10 += overlap(ids(approximate, 10), ids(exact, 10));
      agreement.recall40 += overlap(ids(approximate, DEPTH), ids(exact, DEPTH));
    }
    const update = await timeChanges(corpus);
    const p = (samples: number[], q: number) => round(percentile(samples, q));
    return {
      buildSeconds: round(corpus.buildSeconds),
      hybridP50Ms: p(latency.hybrid, 50),
      hybridP99Ms: p(latency.hybrid, 99),
      referenceHybridP50Ms: p(latency.reference, 50),
      referenceHybridP99Ms: p(latency.reference, 99),
      hybridSpeedupRatio: round(percentile(latency.reference, 50) / percentile(latency.hybrid, 50)),
      lexicalP50Ms: p(latency.lexical, 50),
      lexicalP99Ms: p(latency.lexical, 99),
      vectorSearchP50Ms: p(latency.vector, 50),
      approximateKnnP50Ms: p(latency.approximate, 50),
      approximateKnnP99Ms: p(latency.approximate, 99),
      sqliteVecExactKnnP50Ms: p(latency.exact, 50),
      bruteForceScanP50Ms: p(latency.scan, 50),
      approximateVsScanRatio: round(percentile(latency.approximate, 50) / percentile(latency.scan, 50)),
      approximateRecallAt10: round(agreement.recall10 / queries.length),
      approximateRecallAt40: round(agreement.recall40 / queries.length),
      lexicalTop10KeptVsAllWords: round(agreement.lexical10 / queries.length),
      hybridTop5KeptVsReference: round(agreement.hybrid5 / queries.length),
      hybridTop5KeptVsExactVectorScan: round(agreement.hybrid5Vectors / queries.length),
      vectorTop5KeptVsExactVectorScan: round(agreement.vector5 / queries.length),
      approximateLoadMs: round(loadMs),
      approximateUpdateAfterAdditionMs: round(update.afterAddition),
      approximateUpdateAfterRemovalMs: round(update.afterRemoval),
      approximateMemoryMB: round(vectors.approximate.bytes / 2 ** 20),
    };
  } finally {
    await corpus.database.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  }
}

/**
 * What the first vector search after a change pays to bring the memory copy up
 * to date: after a chunk is added (as an approval of a new document adds some),
 * and after one is removed (as a retirement, or a new revision replacing the old
 * one's chunks, removes some). Each change moves the generation, as the service
 * does.
 */
async function timeChanges(corpus: Corpus): Promise<{ afterAddition: number; afterRemoval: number }> {
  const sqlite = corpus.database.sqlite!;
  const embedder = corpus.index.embedder as unknown as { embedOne(text: string): Float32Array };
  const vector = embedder.embedOne('a freshly approved passage about invoices');
  const bytes = vectorToBytes(vector);
  const id = Number(
    sqlite
      .prepare(
        "insert into chunks (org_id, document_id, revision_id, ordinal, heading_path, text, embedding) values (?, 'doc_0', 'rev_0', 99, '', 'fresh', ?)",
      )
      .run(ORG, bytes).lastInsertRowid,
  );
  sqlite
    .prepare('insert into chunk_vectors (chunk_id, org_id, embedding) values (?, ?, ?)')
    .run(BigInt(id), ORG, bytes);
  // Logged as the service logs its changes: the memory copy follows the change log.
  const log = new ChangeLog('sqlite');
  await log.recordAdded(corpus.database.kysely, [id]);
  let started = performance.now();
  const found = await corpus.index.vectors.nearest(ORG, vector, DEPTH, 'g2');
  const afterAddition = performance.now() - started;
  if (found[0]?.chunkId !== id) throw new Error('the new chunk was not found after the update');
  await log.recordRemoved(corpus.database.kysely, [id]);
  sqlite.prepare('delete from chunks where id = ?').run(id);
  sqlite.prepare('delete from chunk_vectors where chunk_id = ?').run(BigInt(id));
  started = performance.now();
  const after = await corpus.index.vectors.nearest(ORG, vector, DEPTH, 'g3');
  const afterRemoval = performance.now() - started;
  if (after.some((n) => n.chunkId === id)) throw new Error('the removed chunk was still found');
  return { afterAddition, afterRemoval };
}

export default defineBenchmark({
  name: 'knowledge-search',
  description:
    'hybrid search p50/p99 and agreement on SQLite at 100k chunks, against exact search and a brute-force scan of the same vectors',
  goals: [
    { figure: 'hybridP50Ms@100k', atMost: 20, says: 'hybrid search p50 at 100k chunks' },
    { figure: 'approximateRecallAt10@100k', atLeast: 0.99, says: 'approximate KNN finds the exact top 10' },
    {
      figure: 'hybridTop5KeptVsExactVectorScan@100k',
      atLeast: 1,
      says: 'approximate vectors keep the exact hybrid top 5',
    },
  ],
  baselines: ['referenceHybridP50Ms@100k', 'sqliteVecExactKnnP50Ms@100k', 'bruteForceScanP50Ms@100k'],
  async run() {
    const figures: Record<string, number> = {};
    for (const [label, chunks] of [['100k', 100_000]] as const) {
      for (const [key, value] of Object.entries(await measure(chunks, 384)))
        figures[`${key}@${label}`] = value;
    }
    return figures;
  },
});
