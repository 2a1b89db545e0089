/**
 * @module search/knowledge-index
 * The searchable knowledge of every organization: chunks of the approved
 * (live) revisions, each with its lexical entry and its vector. Indexing runs
 * inside the caller's transaction (approval and index change commit together);
 * embedding happens before it, since a remote embedder may be slow. Searching is
 * search/document-search.ts: documents, each once, with its best passage.
 *
 * `index_state` remembers the embedder's fingerprint and dimension. When the
 * configured embedder differs (a new model, a new dimension), vectors are stale:
 * search falls back to lexical ranking and new approvals skip the vector table
 * until `xv kb reindex` re-embeds everything. It also remembers the version of
 * the lexical analysis the entries were written with; at start-up, entries of
 * another version are written again from the chunks (no embedding needed).
 * Every change is also written to the change log (search/change-log.ts), from
 * which searching instances bring their copies and counts up to date.
 */
import { AppError, newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { KnowledgeDatabase, KnowledgeTables } from '../db.js';
import { ChangeLog, type IndexVersion, versionOf } from './change-log.js';
import { type Chunk, chunkMarkdown } from './chunker.js';
import { type RetrievalMode, type SearchHit, searchDocuments, toHits } from './document-search.js';
import { type Embedder, vectorToBytes } from './embedder.js';
import { LEXICAL_VERSION, LexicalIndex, type LexicalTuning } from './lexical-index.js';
import { type RankingTuning, rankingDefaults } from './ranking.js';
import type { VectorIndex } from './vector-index.js';

type Executor = Kysely<KnowledgeTables>;

export type { PassageHit, RetrievalMode, SearchHit } from './document-search.js';

export interface PreparedRevision {
  chunks: Chunk[];
  vectors: Float32Array[];
  embedder: string;
}

export interface IndexedRevision {
  orgId: string;
  documentId: string;
  revisionId: string;
  title: string;
}

interface IndexState {
  embedder?: string;
  dimensions?: number;
  lexical?: string;
  version: IndexVersion;
}

/** Passages each ranking proposes: enough for `topK` documents of several passages each. */
const depthFor = (topK: number) => Math.max(120, 6 * topK);
/** Passages per ranking a public search filters to the public documents. */
const PUBLIC_DEPTH = 300;

export class KnowledgeIndex {
  readonly lexical: LexicalIndex;
  private readonly changes: ChangeLog;

  constructor(
    private readonly database: KnowledgeDatabase,
    readonly embedder: Embedder,
    readonly vectors: VectorIndex,
    private readonly onWarning: (message: string) => void = () => {},
    tuning: Partial<LexicalTuning> & { changesKept?: number } = {},
    readonly ranking: RankingTuning = rankingDefaults,
  ) {
    this.lexical = new LexicalIndex(database.dialect, tuning);
    this.changes = new ChangeLog(database.dialect, tuning.changesKept);
  }

  /**
   * Once at start-up: rewrites the lexical entries if they were written by another
   * version of the analysis, and checks the stored embedder against the configured one.
   */
  async checkIndex(): Promise<void> {
    await this.database.kysely.transaction().execute(async (trx) => {
      const state = await this.state(trx);
      if (state.lexical === LEXICAL_VERSION) return;
      await this.bumpGeneration(trx);
      await this.lexical.rebuild(trx);
      await this.upsert(trx, 'lexical', LEXICAL_VERSION);
      await this.changes.reset(trx); // the log's lexical entries were written by the old analysis
    });
    const state = await this.state(this.database.kysely);
    if (state.embedder && state.embedder !== this.embedder.fingerprint) {
      this.onWarning(
        `The index was built with ${state.embedder} but the embedder is now ${this.embedder.fingerprint}: search is lexical only until \`xv kb reindex\` runs.`,
      );
    }
  }

  /** Chunks and embeds a revision; call before opening the transaction that indexes it. */
  async prepare(title: string, content: string): Promise<PreparedRevision> {
    // Passages are stored composed (NFC): a document pushed decomposed reads, matches and shows like any other.
    const chunks = chunkMarkdown(content.normalize('NFC'));
    title = title.normalize('NFC');
    const vectors = chunks.length
      ? await this.embedder.embed(chunks.map((c) => embeddingText(title, c)))
      : [];
    return { chunks, vectors, embedder: this.embedder.fingerprint };
  }

  /** Makes a revision searchable (inside the caller's transaction). */
  async put(db: Executor, revision: IndexedRevision, prepared: PreparedRevision): Promise<void> {
    if (prepared.chunks.length === 0) return;
    const state = await this.state(db);
    const dimensions = prepared.vectors[0]!.length;
    let vectorsCurrent = state.embedder === prepared.embedder && state.dimensions === dimensions;
    if (!state.embedder) {
      await this.vectors.prepare(db, dimensions);
      await this.setState(db, { embedder: prepared.embedder, dimensions });
      vectorsCurrent = true;
    }
    const ids: number[] = [];
    for (const [i, chunk] of prepared.chunks.entries()) {
      const row = await db
        .insertInto('chunks')
        .values({
          org_id: revision.orgId,
          document_id: revision.documentId,
          revision_id: revision.revisionId,
          ordinal: chunk.ordinal,
          heading_path: chunk.headingPath,
          text: chunk.text,
          embedding: vectorToBytes(prepared.vectors[i]!),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(row.id));
    }
    await this.lexical.add(
      db,
      prepared.chunks.map((c, i) => ({
        chunkId: ids[i]!,
        orgId: revision.orgId,
        title: revision.title,
        headingPath: c.headingPath,
        text: c.text,
      })),
    );
    if (vectorsCurrent) {
      await this.vectors.add(
        db,
        ids.map((chunkId, i) => ({ chunkId, orgId: revision.orgId, vector: prepared.vectors[i]! })),
      );
    }
    await this.bumpGeneration(db);
    await this.changes.recordAdded(db, ids);
  }

  /** Takes a revision out of search (inside the caller's transaction). */
  async drop(db: Executor, revisionId: string): Promise<void> {
    const rows = await db.selectFrom('chunks').select('id').where('revision_id', '=', revisionId).execute();
    if (rows.length === 0) return;
    const ids = rows.map((r) => Number(r.id));
    // Logged before the lexical entries leave: the log keeps them, for the counts.
    await this.changes.recordRemoved(db, ids);
    await this.lexical.remove(db, ids);
    const state = await this.state(db);
    if (state.embedder) await this.vectors.remove(db, ids);
    await db.deleteFrom('chunks').where('revision_id', '=', revisionId).execute();
    await this.bumpGeneration(db);
  }

  /** The organization's best `topK` documents for the question. */
  async search(
    orgId: string,
    query: string,
    topK: number,
    mode: RetrievalMode = 'hybrid',
  ): Promise<SearchHit[]> {
    const ranked = await searchDocuments(
      await this.sources(orgId, query, mode),
      orgId,
      query,
      depthFor(topK),
      topK,
      mode,
      this.ranking,
    );
    return toHits(ranked.slice(0, topK));
  }

  /**
   * Hybrid search over the organization's documents marked public only. The
   * candidates are the organization's best `PUBLIC_DEPTH` passages of each ranking
   * (more for a large `topK`), filtered to public documents afterwards, so the
   * organization-wide indexes and the normal search stay as they are; a public
   * passage ranked below that many internal ones is not found.
   */
  async searchPublic(orgId: string, query: string, topK: number): Promise<SearchHit[]> {
    const depth = Math.max(PUBLIC_DEPTH, depthFor(topK));
    const ranked = await searchDocuments(
      await this.sources(orgId, query, 'hybrid'),
      orgId,
      query,
      depth,
      Number.POSITIVE_INFINITY, // the public ones among them are not known yet
      'hybrid',
      this.ranking,
    );
    if (ranked.length === 0) return [];
    const rows = await this.database.kysely
      .selectFrom('documents')
      .select('id')
      .where('org_id', '=', orgId)
      .where('public', '=', 1)
      .where(
        'id',
        'in',
        ranked.map((d) => d.docId),
      )
      .execute();
    const visible = new Set(rows.map((r) => r.id));
    return toHits(ranked.filter((d) => visible.has(d.docId)).slice(0, topK));
  }

  /** The database, and the vector ranking when the stored vectors match the embedder. */
  private async sources(orgId: string, query: string, mode: RetrievalMode) {
    const db = this.database.kysely;
    const state = await this.state(db);
    const current = state.embedder === this.embedder.fingerprint && state.dimensions;
    const { version } = state;
    const nearest =
      mode === 'lexical' || !current
        ? undefined
        : async (k: number) => {
            const vector = await this.embedQuery(query, mode === 'vector');
            if (!vector || vector.length !== state.dimensions) return undefined;
            const size = await this.lexical.counts.passages(db, orgId, version);
            return this.vectors.nearest(orgId, vector, k, version.generation, size);
          };
    return {
      db,
      lexical: this.lexical,
      version,
      nearest,
      vectorWeight: this.embedder.trust,
    };
  }

  /**
   * Re-embeds every live revision with the configured embedder and rebuilds the
   * chunks, the lexical index and the vector table in one transaction.
   */
  async reindex(): Promise<{ documents: number; chunks: number; embedder: string }> {
    const db = this.database.kysely;
    const live = await db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.live_revision_id')
      .select(['d.org_id', 'd.id as document_id', 'r.id as revision_id', 'r.title', 'r.content'])
      .execute();
    const prepared: { doc: (typeof live)[number]; prepared: PreparedRevision }[] = [];
    for (const doc of live) prepared.push({ doc, prepared: await this.prepare(doc.title, doc.content) });
    const dimensions =
      prepared.find((p) => p.prepared.vectors.length)?.prepared.vectors[0]?.length ??
      (await this.embedder.embed(['dimension probe']))[0]!.length;
    let chunks = 0;
    await db.transaction().execute(async (trx) => {
      const existing = await trx.selectFrom('chunks').select('id').execute();
      await this.lexical.remove(
        trx,
        existing.map((r) => Number(r.id)),
      );
      await trx.deleteFrom('chunks').execute();
      await this.vectors.prepare(trx, dimensions, true);
      await this.setState(trx, { embedder: this.embedder.fingerprint, dimensions });
      await this.upsert(trx, 'lexical', LEXICAL_VERSION);
      for (const { doc, prepared: p } of prepared) {
        await this.put(
          trx,
          { orgId: doc.org_id, documentId: doc.document_id, revisionId: doc.revision_id, title: doc.title },
          p,
        );
        chunks += p.chunks.length;
      }
      await this.bumpGeneration(trx);
      await this.changes.reset(trx); // every copy starts over
    });
    return { documents: live.length, chunks, embedder: this.embedder.fingerprint };
  }

  /** The index's version as a search would read it now. */
  async version(): Promise<IndexVersion> {
    return (await this.state(this.database.kysely)).version;
  }

  private async embedQuery(query: string, required: boolean): Promise<Float32Array | undefined> {
    try {
      return (await this.embedder.embed([query]))[0];
    } catch (error) {
      // Hybrid search degrades to lexical ranking when a remote embedder is down.
      if (required || !(error instanceof AppError)) throw error;
      this.onWarning('The embedder failed; this search used lexical ranking only.');
      return undefined;
    }
  }

  private async state(db: Executor): Promise<IndexState> {
    const rows = await db.selectFrom('index_state').select(['key', 'value']).execute();
    const map = new Map(rows.map((r) => [r.key, r.value]));
    const state: IndexState = { version: versionOf(map) };
    const lexical = map.get('lexical');
    if (lexical) state.lexical = lexical;
    const embedder = map.get('embedder');
    if (embedder) state.embedder = embedder;
    const dimensions = map.get('dimensions');
    if (dimensions) state.dimensions = Number(dimensions);
    return state;
  }

  private async setState(db: Executor, values: { embedder: string; dimensions: number }) {
    await this.upsert(db, 'embedder', values.embedder);
    await this.upsert(db, 'dimensions', String(values.dimensions));
  }

  private bumpGeneration(db: Executor) {
    return this.upsert(db, 'generation', newId('gen'));
  }

  private async upsert(db: Executor, key: string, value: string) {
    await db
      .insertInto('index_state')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}

/** What is embedded: the passage with its document title and headings, so a passage knows its context. */
function embeddingText(title: string, chunk: Chunk): string {
  return [title, chunk.headingPath, chunk.text].filter(Boolean).join('\n');
}
