/**
 * How the knowledge base's costs grow with the corpus: one organization grown to
 * 10k, 100k and 1M chunks, on SQLite and on PostgreSQL (the local server, a
 * schema of its own dropped afterwards; skipped with a figure saying why when it
 * does not answer). At each size, on each database:
 * - hybrid search p50/p99 (the path of `POST /api/ai/search` minus HTTP, top 5
 *   documents), lexical p50 (top 10), vector search p50 and the approximate KNN
 *   alone (k = 40), and its recall@10 against the exact top 10;
 * - the exact KNN the service would otherwise run, as the same-run baseline:
 *   sqlite-vec's KNN on SQLite, the in-memory float32 scan (`ScanIndex`, the
 *   PostgreSQL backend without pgvector) on PostgreSQL, with its load time;
 * - the approximate index's load after a start and its memory;
 * - one more approved document (push, submit, approve with chunking, embedding
 *   and indexing) and the first search after it, then its retirement and the
 *   first search after that (each moves the index generation);
 * - seed time (the database's writes, cumulative) and size on disk.
 * Growth figures (`…Growth@db@1M`) divide a cost at that size by the cost at 10k.
 *
 * The corpus (bench/lib/knowledge-corpus.ts) is generated and embedded once, in
 * batches, written to both databases and folded into the exact reference (each
 * question's true 40 nearest chunks, by a scan of every vector as it is
 * generated), so the float vectors of 1M chunks are never held at once.
 * Fewer questions are asked at 1M (40, and 5 for the exact baselines, whose cost
 * per question is the whole scan) than at 10k and 100k (100, and 20).
 * `XV_BENCH_KB_SIZES=10k,100k` limits the sizes while developing. A whole run
 * takes about 15 minutes on 2 cores (load average 5 to 9), half of it building
 * the corpus: generating and embedding 1M chunks 133 s, seeding SQLite 89 s and
 * PostgreSQL 240 s (multi-row INSERTs, committed without waiting for the WAL).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, type Database, loadSettings, migrate, openDatabase } from '@xv/platform';
import { sql } from 'kysely';
import type { Caller } from '../services/knowledge/src/access/caller.js';
import type { KnowledgeDatabase } from '../services/knowledge/src/db.js';
import { contentHash } from '../services/knowledge/src/documents/hash.js';
import { ReviewWorkflow } from '../services/knowledge/src/documents/review.js';
import { migrations } from '../services/knowledge/src/migrations/index.js';
import type { KnowledgeIndex } from '../services/knowledge/src/search/knowledge-index.js';
import { openKnowledgeIndex } from '../services/knowledge/src/search/open-index.js';
import {
  loadVectorExtension,
  ScanIndex,
  type SqliteVecIndex,
} from '../services/knowledge/src/search/vector-index.js';
import { knowledgeSettings } from '../services/knowledge/src/settings.js';
import { defineBenchmark, type Figures, percentile, round } from './lib/harness.js';
import { random, seedPostgres, seedSqlite, syntheticChunks, syntheticText } from './lib/knowledge-corpus.js';
import { ExactReference } from './lib/knowledge-reference.js';

const ORG = 'org_bench';
const DIMENSIONS = 384;
/** How deep hybrid search asks the vectors for topK ≤ 10: max(4·topK, 40). */
const DEPTH = 40;
const SIZES = [
  { label: '10k', chunks: 10_000, questions: 100, exactQuestions: 20 },
  { label: '100k', chunks: 100_000, questions: 100, exactQuestions: 20 },
  { label: '1M', chunks: 1_000_000, questions: 40, exactQuestions: 5 },
];
/** Chunks generated, embedded and written per batch. */
const BATCH = 10_000;
const POSTGRES_URL = process.env.XV_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Target {
  dialect: 'sqlite' | 'postgres';
  database: KnowledgeDatabase;
  index: KnowledgeIndex;
  store: ReviewWorkflow;
  seedSeconds: number;
  seed(chunks: ReturnType<typeof syntheticChunks>): Promise<void>;
  diskBytes(): Promise<number>;
  close(): Promise<void>;
}

const person = (userId: string): Caller => ({
  userId,
  email: `${userId}@bench.test`,
  orgId: ORG,
  via: 'session',
  scopes: ['sync'],
  permissions: ['review:decide'],
});

async function prepare(database: KnowledgeDatabase) {
  loadVectorExtension(database);
  await migrate(database as unknown as Database, migrations);
  const config = loadSettings(knowledgeSettings, { XV_KB_EMBEDDING_DIMENSIONS: String(DIMENSIONS) });
  const index = await openKnowledgeIndex(database, config, createLogger('kb', 'silent'));
  await index.vectors.prepare(database.kysely, DIMENSIONS);
  await setState(database, { embedder: index.embedder.fingerprint, dimensions: String(DIMENSIONS) });
  return { index, store: new ReviewWorkflow(database, index) };
}

async function setState(database: KnowledgeDatabase, values: Record<string, string>) {
  for (const [key, value] of Object.entries(values))
    await sql`insert into index_state (key, value) values (${key}, ${value}) on conflict (key) do update set value = excluded.value`.execute(
      database.kysely,
    );
}

async function openSqlite(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'xv-bench-kb-scale-'));
  const database = (await openDatabase({
    service: 'knowledge',
    dataDir: dir,
  })) as unknown as KnowledgeDatabase;
  const { index, store } = await prepare(database);
  return {
    dialect: 'sqlite',
    database,
    index,
    store,
    seedSeconds: 0,
    async seed(chunks) {
      seedSqlite(database, ORG, chunks);
    },
    async diskBytes() {
      return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    },
    async close() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(): Promise<Target> {
  const schema = `bench_kscale_${process.pid}`;
  const database = (await openDatabase({
    service: 'knowledge',
    url: POSTGRES_URL,
    schema,
  })) as unknown as KnowledgeDatabase;
  const { index, store } = await prepare(database);
  const pool = database.pool!;
  return {
    dialect: 'postgres',
    database,
    index,
    store,
    seedSeconds: 0,
    seed: (chunks) => seedPostgres(pool, ORG, chunks),
    async diskBytes() {
      const { rows } = await pool.query(
        `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
        [schema],
      );
      return Number(rows[0].n);
    },
    async close() {
      await pool.query(`drop schema if exists ${schema} cascade`);
      await database.close();
    },
  };
}

async function timed<T>(samples: number[], work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  samples.push(performance.now() - started);
  return result;
}

async function elapsedMs(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

const handbookPage = (n: number) =>
  `# Handbook page ${n}\n\n${Array.from(
    { length: 6 },
    (_, s) =>
      `## Section ${s}\n\nThe invoice process for team ${n} requires approval from the budget owner within ${5 + s} working days.`,
  ).join('\n\n')}\n`;

async function measure(
  target: Target,
  size: (typeof SIZES)[number],
  questions: string[],
  embedded: Float32Array[],
  reference: ExactReference,
): Promise<Figures> {
  const { index, database, store } = target;
  const generation = `g_seed_${size.label}`;
  // The seed wrote straight into the tables, past the change log: a new epoch makes every copy start over.
  await setState(database, { generation, changes_epoch: `e_seed_${size.label}` });
  const vectors = index.vectors as SqliteVecIndex | ScanIndex;
  vectors.approximate.forget(ORG);
  const loadMs = await elapsedMs(() => vectors.nearest(ORG, embedded[0]!, DEPTH, generation));
  for (const q of questions.slice(0, 5)) await index.search(ORG, q, 5);

  const latency = { hybrid: [], lexical: [], vector: [], approximate: [], exact: [] } as Record<
    string,
    number[]
  >;
  let recall10 = 0;
  for (const [i, q] of questions.slice(0, size.questions).entries()) {
    await timed(latency.hybrid!, () => index.search(ORG, q, 5));
    await timed(latency.lexical!, () => index.search(ORG, q, 10, 'lexical'));
    await timed(latency.vector!, () => index.search(ORG, q, 5, 'vector'));
    const found = await timed(latency.approximate!, () =>
      vectors.nearest(ORG, embedded[i]!, DEPTH, generation),
    );
    recall10 += reference.recall(i, found.map((n) => n.chunkId).slice(0, 10), 10);
  }

  // The exact KNN the service would run without the approximate index.
  let exactLoadMs = 0;
  if (target.dialect === 'sqlite') {
    const exact = vectors as SqliteVecIndex;
    for (const query of embedded.slice(0, size.exactQuestions))
      await timed(latency.exact!, () => exact.exactNearest(ORG, query, DEPTH));
  } else {
    const scan = new ScanIndex(database.kysely, { approximateFrom: Number.POSITIVE_INFINITY });
    exactLoadMs = await elapsedMs(() => scan.exactNearest(ORG, embedded[0]!, DEPTH, generation));
    for (const query of embedded.slice(0, size.exactQuestions))
      await timed(latency.exact!, () => scan.exactNearest(ORG, query, DEPTH, generation));
  }

  // One more document approved at this size, then retired: what an approval costs, and the search after it.
  const path = `handbook/${size.label}.md`;
  const content = handbookPage(size.chunks);
  const approveMs = await elapsedMs(async () => {
    const { docId } = await store.push(person('usr_maker'), { path, content, hash: contentHash(content) });
    await store.submit(person('usr_maker'), docId);
    await store.decide(person('usr_checker'), docId, 'approve');
  });
  const afterApprovalMs = await elapsedMs(() => index.search(ORG, questions[0]!, 5));
  const retireMs = await elapsedMs(async () => {
    const { docId } = await store.retire(person('usr_maker'), path);
    await store.decide(person('usr_checker'), docId, 'approve');
  });
  const afterRetirementMs = await elapsedMs(() => index.search(ORG, questions[0]!, 5));

  const p = (samples: number[], q: number) => round(percentile(samples, q));
  return {
    seedSeconds: round(target.seedSeconds),
    diskMB: round((await target.diskBytes()) / 2 ** 20),
    hybridP50Ms: p(latency.hybrid!, 50),
    hybridP99Ms: p(latency.hybrid!, 99),
    lexicalP50Ms: p(latency.lexical!, 50),
    vectorSearchP50Ms: p(latency.vector!, 50),
    approximateKnnP50Ms: p(latency.approximate!, 50),
    exactKnnP50Ms: p(latency.exact!, 50),
    ...(target.dialect === 'postgres' ? { exactScanLoadMs: round(exactLoadMs) } : {}),
    approximateVsExactRatio: round(percentile(latency.approximate!, 50) / percentile(latency.exact!, 50)),
    approximateRecallAt10: round(recall10 / Math.min(size.questions, questions.length)),
    approximateLoadMs: round(loadMs),
    approximateMemoryMB: round(vectors.approximate.bytes / 2 ** 20),
    approveAndIndexMs: round(approveMs),
    firstSearchAfterApprovalMs: round(afterApprovalMs),
    retireAndUnindexMs: round(retireMs),
    firstSearchAfterRetirementMs: round(afterRetirementMs),
  };
}

/** Costs whose growth from 10k is reported. */
const GROWING = [
  'seedSeconds',
  'diskMB',
  'hybridP50Ms',
  'hybridP99Ms',
  'lexicalP50Ms',
  'vectorSearchP50Ms',
  'approximateKnnP50Ms',
  'exactKnnP50Ms',
  'approximateLoadMs',
  'approximateMemoryMB',
  'approveAndIndexMs',
  'firstSearchAfterApprovalMs',
];

function sizesToRun() {
  const wanted = process.env.XV_BENCH_KB_SIZES?.split(',').map((s) => s.trim());
  return wanted ? SIZES.filter((s) => wanted.includes(s.label)) : SIZES;
}

export default defineBenchmark({
  name: 'knowledge-scale',
  description:
    'knowledge base costs at 10k, 100k and 1M chunks on SQLite and PostgreSQL: search latency, recall, index load and memory, one approval, seed time, size on disk, and how each grows',
  goals: [
    { figure: 'hybridP50Ms@sqlite@100k', atMost: 20, says: 'hybrid search p50 at 100k chunks (SQLite)' },
    {
      figure: 'approximateRecallAt10@sqlite@100k',
      atLeast: 0.99,
      says: 'approximate KNN finds the exact top 10 (SQLite)',
    },
    {
      figure: 'approximateRecallAt10@postgres@100k',
      atLeast: 0.99,
      says: 'approximate KNN finds the exact top 10 (PostgreSQL)',
    },
  ],
  baselines: SIZES.flatMap((s) => [`exactKnnP50Ms@sqlite@${s.label}`, `exactKnnP50Ms@postgres@${s.label}`]),
  async run() {
    const figures: Figures = {};
    const targets: Target[] = [await openSqlite()];
    try {
      targets.push(await openPostgres());
    } catch (error) {
      figures.postgres = `skipped: ${(error as Error).message}`;
    }
    try {
      const embedder = targets[0]!.index.embedder as unknown as { embedOne(text: string): Float32Array };
      const next = random(42);
      const questions = Array.from({ length: Math.max(...SIZES.map((s) => s.questions)) }, () =>
        syntheticText(next, 6),
      );
      const embedded = questions.map((q) => embedder.embedOne(q));
      const reference = new ExactReference(embedded, DEPTH);
      let seeded = 0;
      let embedSeconds = 0;
      for (const size of sizesToRun()) {
        for (; seeded < size.chunks; seeded += BATCH) {
          let started = performance.now();
          const chunks = syntheticChunks(embedder, seeded, Math.min(size.chunks, seeded + BATCH));
          embedSeconds += (performance.now() - started) / 1000;
          reference.add(chunks);
          for (const target of targets) {
            started = performance.now();
            await target.seed(chunks);
            target.seedSeconds += (performance.now() - started) / 1000;
          }
        }
        figures[`generateAndEmbedSeconds@${size.label}`] = round(embedSeconds);
        for (const target of targets) {
          const measured = await measure(target, size, questions, embedded, reference);
          for (const [key, value] of Object.entries(measured))
            figures[`${key}@${target.dialect}@${size.label}`] = value;
          // Progress on stderr: a run to 1M takes minutes.
          console.error(`${target.dialect}@${size.label}`, JSON.stringify(measured));
        }
      }
      for (const target of targets)
        for (const key of GROWING)
          for (const label of ['100k', '1M']) {
            const at = figures[`${key}@${target.dialect}@${label}`];
            const from = figures[`${key}@${target.dialect}@10k`];
            if (typeof at === 'number' && typeof from === 'number' && from > 0)
              figures[`${key}Growth@${target.dialect}@${label}`] = round(at / from);
          }
      return figures;
    } finally {
      for (const target of targets) await target.close();
    }
  },
});
