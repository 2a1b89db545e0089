/**
 * Knowledge base search latency on SQLite at 10k and 100k chunks: hybrid (FTS5 +
 * sqlite-vec fused by RRF, the path `POST /api/ai/search` takes, minus HTTP),
 * its lexical and vector halves, and a brute-force scan of the same vectors in
 * memory as the reference. Synthetic chunks (40 words drawn with Zipf-like
 * frequencies from an 8,100-word vocabulary) are embedded with the offline
 * embedder and inserted in one transaction; queries are 6 words from the same
 * distribution. Latencies are measured in-process (no HTTP), one query at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Database, loadSettings, migrate, openDatabase } from '@xv/platform';
import type { KnowledgeDatabase } from '../services/knowledge/src/db.js';
import { migrations } from '../services/knowledge/src/migrations/index.js';
import { openKnowledgeIndex } from '../services/knowledge/src/open-index.js';
import { vectorToBytes } from '../services/knowledge/src/search/embedder.js';
import type { KnowledgeIndex, RetrievalMode } from '../services/knowledge/src/search/knowledge-index.js';
import { loadVectorExtension, scanNearest } from '../services/knowledge/src/search/vector-index.js';
import { knowledgeSettings } from '../services/knowledge/src/settings.js';
import { defineBenchmark, percentile, round } from './lib/harness.js';

const ORG = 'org_bench';
const CHUNKS_PER_DOCUMENT = 10;
const QUERIES = 200;

const VOCABULARY = (
  'invoice payment supplier contract renewal discount approval budget forecast revenue expense travel hotel ' +
  'flight policy leave holiday salary payroll bonus commission quota customer ticket refund shipping return ' +
  'warehouse inventory order delivery security password access badge visitor laptop device network backup ' +
  'incident outage release deploy review audit compliance privacy retention training onboarding manager team ' +
  'project deadline meeting report quarter annual monthly weekly regional director officer vendor procurement ' +
  'quote tender insurance benefit pension health office remote hybrid equipment license software cloud server'
).split(' ');

/** A deterministic pseudo-random source, so every run indexes the same corpus. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = 'ka lo mi ne ru sa ti ve do pa ze fo gu hi ja bo'.split(' ');
/** The business words first (the most frequent), then 8,000 made-up words: a vocabulary the size of a real wiki's. */
const LEXICON = [
  ...VOCABULARY,
  ...Array.from({ length: 8000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
    return `${word}x`;
  }),
];

/** Words with Zipf-like frequencies (log-uniform rank), as in natural text. */
function syntheticText(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++)
    out.push(LEXICON[Math.floor(Math.exp(next() * Math.log(LEXICON.length))) - 1]!);
  return out.join(' ');
}

interface Corpus {
  database: KnowledgeDatabase;
  index: KnowledgeIndex;
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
  const embedder = index.embedder as unknown as { embedOne(text: string): Float32Array };
  await index.vectors.prepare(database.kysely, dimensions);
  const sqlite = opened.sqlite!;
  sqlite
    .prepare(
      "insert into index_state (key, value) values ('embedder', ?), ('dimensions', ?), ('generation', 'g1')",
    )
    .run(index.embedder.fingerprint, String(dimensions));
  const next = random(chunks);
  const ids: number[] = [];
  const matrix = new Float32Array(chunks * dimensions);
  const insertDocument = sqlite.prepare(
    'insert into documents (id, org_id, path, title, latest_revision_id, live_revision_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, 0)',
  );
  const insertRevision = sqlite.prepare(
    "insert into revisions (id, org_id, document_id, number, kind, state, title, content, hash, maker_id, maker_email, created_at, updated_at) values (?, ?, ?, 1, 'content', 'approved', ?, '', '', 'usr_bench', 'bench@x.test', 0, 0)",
  );
  const insertChunk = sqlite.prepare(
    'insert into chunks (org_id, document_id, revision_id, ordinal, heading_path, text, embedding) values (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertText = sqlite.prepare(
    'insert into chunks_fts (rowid, org, title, heading_path, text) values (?, ?, ?, ?, ?)',
  );
  const insertVector = sqlite.prepare(
    'insert into chunk_vectors (chunk_id, org_id, embedding) values (?, ?, ?)',
  );
  sqlite.transaction(() => {
    for (let c = 0; c < chunks; c++) {
      const d = Math.floor(c / CHUNKS_PER_DOCUMENT);
      const docId = `doc_${d}`;
      const revisionId = `rev_${d}`;
      const title = `Document ${d} ${syntheticText(next, 3)}`;
      if (c % CHUNKS_PER_DOCUMENT === 0) {
        insertDocument.run(docId, ORG, `bench/${d}.md`, title, revisionId, revisionId);
        insertRevision.run(revisionId, ORG, docId, title);
      }
      const heading = syntheticText(next, 3);
      const text = syntheticText(next, 40);
      const vector = embedder.embedOne(`${title}\n${heading}\n${text}`);
      const bytes = vectorToBytes(vector);
      const id = Number(
        insertChunk.run(ORG, docId, revisionId, c % CHUNKS_PER_DOCUMENT, heading, text, bytes)
          .lastInsertRowid,
      );
      insertText.run(id, ORG, title, heading, text);
      insertVector.run(BigInt(id), ORG, bytes);
      ids.push(id);
      matrix.set(vector, c * dimensions);
    }
  })();
  return {
    database,
    index,
    ids,
    matrix,
    dimensions,
    dir,
    buildSeconds: (performance.now() - started) / 1000,
  };
}

async function time(samples: number[], work: () => Promise<unknown> | unknown) {
  const started = performance.now();
  await work();
  samples.push(performance.now() - started);
}

async function measure(chunks: number, dimensions: number) {
  const corpus = await buildCorpus(chunks, dimensions);
  try {
    const next = random(42);
    const queries = Array.from({ length: QUERIES }, () => syntheticText(next, 6));
    const vectors = await corpus.index.embedder.embed(queries);
    const latency: Record<RetrievalMode | 'scan' | 'knn', number[]> = {
      hybrid: [],
      lexical: [],
      vector: [],
      knn: [],
      scan: [],
    };
    for (const q of queries.slice(0, 20)) await corpus.index.search(ORG, q, 5); // warm-up
    let agreeing = 0;
    for (const [i, q] of queries.entries()) {
      for (const mode of ['hybrid', 'lexical', 'vector'] as const)
        await time(latency[mode], () => corpus.index.search(ORG, q, 5, mode));
      let knn: { chunkId: number }[] = [];
      let exact: { chunkId: number }[] = [];
      await time(latency.knn, async () => {
        knn = await corpus.index.vectors.nearest(ORG, vectors[i]!, 20, 'g1');
      });
      await time(latency.scan, () => {
        exact = scanNearest(corpus.ids, corpus.matrix, corpus.dimensions, vectors[i]!, 20);
      });
      const truth = new Set(exact.map((n) => n.chunkId));
      agreeing += knn.filter((n) => truth.has(n.chunkId)).length / Math.max(1, exact.length);
    }
    const p = (mode: keyof typeof latency, q: number) => round(percentile(latency[mode], q));
    return {
      buildSeconds: round(corpus.buildSeconds),
      hybridP50Ms: p('hybrid', 50),
      hybridP99Ms: p('hybrid', 99),
      lexicalP50Ms: p('lexical', 50),
      vectorSearchP50Ms: p('vector', 50),
      sqliteVecKnnP50Ms: p('knn', 50),
      sqliteVecKnnP99Ms: p('knn', 99),
      bruteForceScanP50Ms: p('scan', 50),
      bruteForceScanP99Ms: p('scan', 99),
      knnVsScanRatio: round(percentile(latency.knn, 50) / percentile(latency.scan, 50)),
      knnRecallVsScan: round(agreeing / queries.length),
    };
  } finally {
    await corpus.database.close();
    rmSync(corpus.dir, { recursive: true, force: true });
  }
}

export default defineBenchmark({
  name: 'knowledge-search',
  description:
    'hybrid search p50/p99 on SQLite at 10k and 100k chunks, against a brute-force scan of the same vectors',
  async run() {
    const figures: Record<string, number> = {};
    // The default 384 dimensions, and 128 (XV_KB_EMBEDDING_DIMENSIONS) to show what the vector scan costs per dimension.
    for (const [label, chunks, dimensions] of [
      ['10k', 10_000, 384],
      ['100k', 100_000, 384],
      ['100k-128d', 100_000, 128],
    ] as const) {
      for (const [key, value] of Object.entries(await measure(chunks, dimensions)))
        figures[`${key}@${label}`] = value;
    }
    return figures;
  },
});
