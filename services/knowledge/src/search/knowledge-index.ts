/**
 * @module search/knowledge-index
 * The searchable knowledge of every organization: chunks of the approved
 * (live) revisions, each with its lexical entry and its vector. Indexing runs
 * inside the caller's transaction (approval and index change commit together);
 * embedding happens before it, since a remote embedder may be slow.
 *
 * Hybrid retrieval fuses the lexical and the vector ranking by reciprocal rank
 * fusion (RRF, k = 60): a passage scores Σ 1/(60 + rank) over the lists it is in.
 * The reported `score` is that sum divided by the best score possible, so 1 means
 * "first in every list".
 *
 * `index_state` remembers the embedder's fingerprint and dimension. When the
 * configured embedder differs (a new model, a new dimension), vectors are stale:
 * search falls back to lexical ranking and new approvals skip the vector table
 * until `xv kb reindex` re-embeds everything.
 */
import { AppError, newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { KnowledgeDatabase, KnowledgeTables } from '../db.js';
import { type Chunk, chunkMarkdown } from './chunker.js';
import { type Embedder, vectorToBytes } from './embedder.js';
import { LexicalIndex, type LexicalTuning } from './lexical-index.js';
import type { VectorIndex } from './vector-index.js';

type Executor = Kysely<KnowledgeTables>;

export type RetrievalMode = 'hybrid' | 'lexical' | 'vector';

export interface SearchHit {
  docId: string;
  title: string;
  headingPath: string;
  text: string;
  score: number;
}

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
  generation: string;
}

const RRF_K = 60;
/** Candidates per list a public search filters to the public documents. */
const PUBLIC_DEPTH = 200;

export class KnowledgeIndex {
  readonly lexical: LexicalIndex;

  constructor(
    private readonly database: KnowledgeDatabase,
    readonly embedder: Embedder,
    readonly vectors: VectorIndex,
    private readonly onWarning: (message: string) => void = () => {},
    lexicalTuning: Partial<LexicalTuning> = {},
  ) {
    this.lexical = new LexicalIndex(database.dialect, lexicalTuning);
  }

  /** Checks the stored embedder against the configured one, once at start-up. */
  async checkEmbedder(): Promise<void> {
    const state = await this.state(this.database.kysely);
    if (state.embedder && state.embedder !== this.embedder.fingerprint) {
      this.onWarning(
        `The index was built with ${state.embedder} but the embedder is now ${this.embedder.fingerprint}: search is lexical only until \`xv kb reindex\` runs.`,
      );
    }
  }

  /** Chunks and embeds a revision; call before opening the transaction that indexes it. */
  async prepare(title: string, content: string): Promise<PreparedRevision> {
    const chunks = chunkMarkdown(content);
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
  }

  /** Takes a revision out of search (inside the caller's transaction). */
  async drop(db: Executor, revisionId: string): Promise<void> {
    const rows = await db.selectFrom('chunks').select('id').where('revision_id', '=', revisionId).execute();
    if (rows.length === 0) return;
    const ids = rows.map((r) => Number(r.id));
    await this.lexical.remove(db, ids);
    const state = await this.state(db);
    if (state.embedder) await this.vectors.remove(db, ids);
    await db.deleteFrom('chunks').where('revision_id', '=', revisionId).execute();
    await this.bumpGeneration(db);
  }

  async search(
    orgId: string,
    query: string,
    topK: number,
    mode: RetrievalMode = 'hybrid',
  ): Promise<SearchHit[]> {
    const { ranked, lists } = await this.rank(orgId, query, Math.max(topK * 4, 40), mode);
    return this.hits(orgId, ranked.slice(0, topK), lists);
  }

  /**
   * Hybrid search over the organization's documents marked public only. The
   * candidates are the organization's best `PUBLIC_DEPTH` passages of each list,
   * filtered to public documents afterwards, so the organization-wide indexes and
   * the normal search stay as they are; a public passage ranked below that many
   * internal ones is not found.
   */
  async searchPublic(orgId: string, query: string, topK: number): Promise<SearchHit[]> {
    const { ranked, lists } = await this.rank(orgId, query, Math.max(topK * 4, PUBLIC_DEPTH), 'hybrid');
    if (ranked.length === 0) return [];
    const rows = await this.database.kysely
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select('c.id')
      .where('c.org_id', '=', orgId)
      .where('d.org_id', '=', orgId)
      .where('d.public', '=', 1)
      .where(
        'c.id',
        'in',
        ranked.map(([id]) => id),
      )
      .execute();
    const visible = new Set(rows.map((r) => Number(r.id)));
    return this.hits(orgId, ranked.filter(([id]) => visible.has(id)).slice(0, topK), lists);
  }

  /** The fused ranking (chunk id, RRF score), best first, and how many lists took part. */
  private async rank(orgId: string, query: string, depth: number, mode: RetrievalMode) {
    const db = this.database.kysely;
    const state = await this.state(db);
    const lists: number[][] = [];
    if (mode !== 'vector')
      lists.push(
        (await this.lexical.search(db, orgId, query, depth, state.generation)).map((h) => h.chunkId),
      );
    if (mode !== 'lexical') {
      if (state.embedder === this.embedder.fingerprint && state.dimensions) {
        const vector = await this.embedQuery(query, mode === 'vector');
        if (vector && vector.length === state.dimensions) {
          const neighbours = await this.vectors.nearest(orgId, vector, depth, state.generation);
          lists.push(neighbours.map((n) => n.chunkId));
        }
      }
    }
    const fused = new Map<number, number>();
    for (const list of lists) {
      for (const [rank, id] of list.entries()) fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1));
    }
    return { ranked: [...fused].sort((a, b) => b[1] - a[1]), lists: lists.length };
  }

  /** The passages of the chosen chunks, in their order, with the score relative to the best possible. */
  private async hits(orgId: string, best: [number, number][], lists: number): Promise<SearchHit[]> {
    if (best.length === 0) return [];
    const rows = await this.database.kysely
      .selectFrom('chunks as c')
      .innerJoin('revisions as r', 'r.id', 'c.revision_id')
      .select(['c.id', 'c.document_id', 'c.heading_path', 'c.text', 'r.title'])
      .where('c.org_id', '=', orgId)
      .where(
        'c.id',
        'in',
        best.map(([id]) => id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const bestPossible = lists / (RRF_K + 1);
    return best.flatMap(([id, score]) => {
      const row = byId.get(id);
      return row
        ? [
            {
              docId: row.document_id,
              title: row.title,
              headingPath: row.heading_path,
              text: row.text,
              score: Math.round((score / bestPossible) * 1e4) / 1e4,
            },
          ]
        : [];
    });
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
      for (const { doc, prepared: p } of prepared) {
        await this.put(
          trx,
          { orgId: doc.org_id, documentId: doc.document_id, revisionId: doc.revision_id, title: doc.title },
          p,
        );
        chunks += p.chunks.length;
      }
      await this.bumpGeneration(trx);
    });
    return { documents: live.length, chunks, embedder: this.embedder.fingerprint };
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
    const state: IndexState = { generation: map.get('generation') ?? '' };
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
