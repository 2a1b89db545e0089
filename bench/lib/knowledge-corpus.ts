/**
 * @module bench/lib/knowledge-corpus
 * The synthetic knowledge base the knowledge benchmarks search: chunks of 40
 * words drawn with Zipf-like frequencies from an 8,100-word vocabulary (the
 * business words most frequent, then 8,000 made-up ones), 10 chunks per
 * document, embedded with the service's offline embedder; questions are 6 words
 * from the same distribution. Deterministic: every run indexes the same corpus.
 *
 * Chunks are written straight into the service's tables (documents, approved
 * revisions, chunks with their float32 copy, and the lexical and vector entries
 * the service would write), in batches: prepared statements in one transaction
 * on SQLite, `unnest` multi-row INSERTs on PostgreSQL (the tsvector is computed
 * by PostgreSQL as `LexicalIndex.add` computes it).
 */
import type { KnowledgeDatabase } from '../../services/knowledge/src/db.js';
import { fold } from '../../services/knowledge/src/search/analysis.js';
import { vectorToBytes } from '../../services/knowledge/src/search/embedder.js';

export const CHUNKS_PER_DOCUMENT = 10;

const VOCABULARY = (
  'invoice payment supplier contract renewal discount approval budget forecast revenue expense travel hotel ' +
  'flight policy leave holiday salary payroll bonus commission quota customer ticket refund shipping return ' +
  'warehouse inventory order delivery security password access badge visitor laptop device network backup ' +
  'incident outage release deploy review audit compliance privacy retention training onboarding manager team ' +
  'project deadline meeting report quarter annual monthly weekly regional director officer vendor procurement ' +
  'quote tender insurance benefit pension health office remote hybrid equipment license software cloud server'
).split(' ');

/** A deterministic pseudo-random source. */
export function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = 'ka lo mi ne ru sa ti ve do pa ze fo gu hi ja bo'.split(' ');
const LEXICON = [
  ...VOCABULARY,
  ...Array.from({ length: 8000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) word += SYLLABLES[n % SYLLABLES.length];
    return `${word}x`;
  }),
];

/** Words with Zipf-like frequencies (log-uniform rank), as in natural text. */
export function syntheticText(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++)
    out.push(LEXICON[Math.floor(Math.exp(next() * Math.log(LEXICON.length))) - 1]!);
  return out.join(' ');
}

export interface SyntheticChunk {
  /** The chunk's id in every database: chunk number + 1. */
  id: number;
  document: number;
  ordinal: number;
  title: string;
  heading: string;
  text: string;
  vector: Float32Array;
}

type OfflineEmbedder = { embedOne(text: string): Float32Array };

/**
 * Chunks `from` (inclusive) to `to` (exclusive) of the corpus. Each document's
 * text depends on its number only, so a corpus grown in steps is the corpus
 * built at once.
 */
export function syntheticChunks(embedder: OfflineEmbedder, from: number, to: number): SyntheticChunk[] {
  const chunks: SyntheticChunk[] = [];
  let next = random(0);
  let title = '';
  for (let c = from; c < to; c++) {
    const document = Math.floor(c / CHUNKS_PER_DOCUMENT);
    const ordinal = c % CHUNKS_PER_DOCUMENT;
    if (ordinal === 0 || c === from) {
      next = random(document + 1);
      title = `Document ${document} ${syntheticText(next, 3)}`;
      for (let skip = 0; skip < ordinal; skip++) syntheticText(next, 43);
    }
    const heading = syntheticText(next, 3);
    const text = syntheticText(next, 40);
    const vector = embedder.embedOne(`${title}\n${heading}\n${text}`);
    chunks.push({ id: c + 1, document, ordinal, title, heading, text, vector });
  }
  return chunks;
}

/** Writes chunks (and their documents, at each document's first chunk) into a SQLite knowledge database. */
export function seedSqlite(database: KnowledgeDatabase, orgId: string, chunks: SyntheticChunk[]): void {
  const sqlite = database.sqlite!;
  const insertDocument = sqlite.prepare(
    'insert into documents (id, org_id, path, title, latest_revision_id, live_revision_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, 0)',
  );
  const insertRevision = sqlite.prepare(
    "insert into revisions (id, org_id, document_id, number, kind, state, title, content, hash, maker_id, maker_email, created_at, updated_at) values (?, ?, ?, 1, 'content', 'approved', ?, '', '', 'usr_bench', 'bench@x.test', 0, 0)",
  );
  const insertChunk = sqlite.prepare(
    'insert into chunks (id, org_id, document_id, revision_id, ordinal, heading_path, text, embedding) values (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertText = sqlite.prepare(
    'insert into chunks_fts (rowid, org, title, heading_path, text) values (?, ?, ?, ?, ?)',
  );
  const insertVector = sqlite.prepare(
    'insert into chunk_vectors (chunk_id, org_id, embedding) values (?, ?, ?)',
  );
  sqlite.transaction(() => {
    for (const chunk of chunks) {
      const docId = `doc_${chunk.document}`;
      const revisionId = `rev_${chunk.document}`;
      if (chunk.ordinal === 0) {
        insertDocument.run(docId, orgId, `bench/${chunk.document}.md`, chunk.title, revisionId, revisionId);
        insertRevision.run(revisionId, orgId, docId, chunk.title);
      }
      const bytes = vectorToBytes(chunk.vector);
      insertChunk.run(chunk.id, orgId, docId, revisionId, chunk.ordinal, chunk.heading, chunk.text, bytes);
      insertText.run(chunk.id, orgId, fold(chunk.title), fold(chunk.heading), fold(chunk.text));
      insertVector.run(BigInt(chunk.id), orgId, bytes);
    }
  })();
}

/** Rows per INSERT on PostgreSQL. */
const PG_BATCH = 2000;

/** Writes chunks into a PostgreSQL knowledge database, one transaction per call. */
export async function seedPostgres(
  pool: NonNullable<KnowledgeDatabase['pool']>,
  orgId: string,
  chunks: SyntheticChunk[],
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    // A bench seed need not wait for its WAL to reach the disk at commit (the schema is dropped afterwards).
    await client.query('set local synchronous_commit = off');
    const firsts = chunks.filter((c) => c.ordinal === 0);
    for (let i = 0; i < firsts.length; i += PG_BATCH) {
      const batch = firsts.slice(i, i + PG_BATCH);
      const numbers = batch.map((c) => c.document);
      const titles = batch.map((c) => c.title);
      await client.query(
        `insert into documents (id, org_id, path, title, latest_revision_id, live_revision_id, created_at, updated_at)
         select 'doc_' || n, $1, 'bench/' || n || '.md', t, 'rev_' || n, 'rev_' || n, 0, 0 from unnest($2::int[], $3::text[]) as u(n, t)`,
        [orgId, numbers, titles],
      );
      await client.query(
        `insert into revisions (id, org_id, document_id, number, kind, state, title, content, hash, maker_id, maker_email, created_at, updated_at)
         select 'rev_' || n, $1, 'doc_' || n, 1, 'content', 'approved', t, '', '', 'usr_bench', 'bench@x.test', 0, 0 from unnest($2::int[], $3::text[]) as u(n, t)`,
        [orgId, numbers, titles],
      );
    }
    for (let i = 0; i < chunks.length; i += PG_BATCH) {
      const batch = chunks.slice(i, i + PG_BATCH);
      await client.query(
        `insert into chunks (id, org_id, document_id, revision_id, ordinal, heading_path, text, embedding, search_vector)
         select id, $1, 'doc_' || n, 'rev_' || n, o, h, t, e,
           setweight(to_tsvector('english', ft), 'A') || setweight(to_tsvector('english', fh), 'B') || to_tsvector('english', ftext)
         from unnest($2::bigint[], $3::int[], $4::int[], $5::text[], $6::text[], $7::bytea[], $8::text[], $9::text[], $10::text[])
           as u(id, n, o, h, t, e, ft, fh, ftext)`,
        [
          orgId,
          batch.map((c) => c.id),
          batch.map((c) => c.document),
          batch.map((c) => c.ordinal),
          batch.map((c) => c.heading),
          batch.map((c) => c.text),
          batch.map((c) => Buffer.from(vectorToBytes(c.vector))),
          batch.map((c) => fold(c.title)),
          batch.map((c) => fold(c.heading)),
          batch.map((c) => fold(c.text)),
        ],
      );
    }
    // Ids the service allocates (an approval) come after the seeded ones.
    await client.query(`select setval(pg_get_serial_sequence('chunks', 'id'), (select max(id) from chunks))`);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}
