/**
 * @module search/approximate-index
 * Approximate nearest neighbours for large organizations, in two passes:
 * 1. an estimate over the organization's int8 vectors held in memory
 *    (`QuantizedVectors`: the query's heaviest dimensions only), keeping the best
 *    `max(k, rerankMin, rerankFactor × k)` chunks;
 * 2. an exact re-rank of those candidates with their float32 vectors, read from
 *    `chunks.embedding` (the copy every backend writes in the same transaction).
 * Distances are exact cosine distances; what may differ from an exact search is
 * only which chunks make the top k (recall is measured by the knowledge-search
 * benchmark against a brute-force scan).
 *
 * The memory copy follows the database through the index generation, which every
 * change moves (from any instance, or `xv kb reindex`): when it has moved, the
 * next search reads the organization's rows of the change log (search/change-log.ts)
 * after the last one applied, drops the vectors that left and reads the new ones,
 * so the work follows the change, not the organization. After a restart, a
 * reindex (a new epoch) or a gap longer than the log keeps, the organization is
 * loaded again.
 */
import type { DialectName } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import { ChangeLog } from './change-log.js';
import { bytesToVector } from './embedder.js';
import type { Neighbour } from './neighbour.js';
import { QuantizedVectors } from './quantized-vectors.js';

type Executor = Kysely<KnowledgeTables>;

export interface ApproximateTuning {
  /** Share of the query's squared norm its first-pass dimensions must hold. */
  queryMass: number;
  /** Candidates re-ranked exactly: `rerankFactor × k`, at least `rerankMin`. */
  rerankFactor: number;
  rerankMin: number;
  /** An organization nobody searched for this long leaves memory (its next search loads it again). */
  idleMs: number;
}

/** Chosen by the sweep in docs/knowledge.md: recall@10 0.995 at 100k chunks, for 5.6 ms. */
export const approximateDefaults: ApproximateTuning = {
  queryMass: 0.9,
  rerankFactor: 5,
  rerankMin: 200,
  idleMs: 30 * 60_000,
};

/** Rows read per statement when loading or re-ranking. */
const BATCH = 1000;

interface Loaded {
  generation: string;
  vectors: QuantizedVectors;
  /** Chunks whose stored vector has another dimension (written under another embedder, before a reindex). */
  unusable: Set<number>;
  /** The change log's epoch and last row applied. */
  epoch: string;
  seen: number;
  usedAt: number;
}

type Rows = { id: number; embedding: Uint8Array }[];

export class ApproximateIndex {
  private readonly loaded = new Map<string, Loaded>();
  private readonly syncing = new Map<string, Promise<QuantizedVectors>>();
  private readonly tuning: ApproximateTuning;
  private readonly changes: ChangeLog;

  constructor(
    private readonly db: Executor,
    tuning: Partial<ApproximateTuning> = {},
    dialect: DialectName = 'sqlite',
  ) {
    this.tuning = { ...approximateDefaults, ...tuning };
    this.changes = new ChangeLog(dialect);
  }

  async nearest(orgId: string, query: Float32Array, k: number, generation: string): Promise<Neighbour[]> {
    const vectors = await this.current(orgId, generation, query.length);
    this.touch(orgId);
    const { queryMass, rerankFactor, rerankMin } = this.tuning;
    const candidates = vectors.candidates(query, Math.max(k, rerankMin, rerankFactor * k), queryMass);
    const neighbours: Neighbour[] = [];
    for (let i = 0; i < candidates.length; i += BATCH) {
      const rows = await this.db
        .selectFrom('chunks')
        .select(['id', 'embedding'])
        .where('org_id', '=', orgId)
        .where('id', 'in', candidates.slice(i, i + BATCH))
        .execute();
      for (const row of rows) {
        if (row.embedding.byteLength !== query.length * 4) continue;
        const vector = bytesToVector(row.embedding);
        let dot = 0;
        for (let d = 0; d < query.length; d++) dot += vector[d]! * query[d]!;
        neighbours.push({ chunkId: Number(row.id), distance: 1 - dot });
      }
    }
    return neighbours.sort((a, b) => a.distance - b.distance).slice(0, k);
  }

  /** Drops an organization's memory copy (it became small enough for an exact search). */
  forget(orgId: string): void {
    this.loaded.delete(orgId);
  }

  /** Marks the organization used, and lets go of those nobody searched for `idleMs`. */
  private touch(orgId: string) {
    const now = Date.now();
    for (const [id, loaded] of this.loaded) {
      if (id === orgId) loaded.usedAt = now;
      else if (now - loaded.usedAt >= this.tuning.idleMs) this.loaded.delete(id);
    }
  }

  /** Chunks held in memory, over all organizations. */
  get size(): number {
    let size = 0;
    for (const { vectors } of this.loaded.values()) size += vectors.size;
    return size;
  }

  /** Memory held by their arrays (not counting the id maps). */
  get bytes(): number {
    let bytes = 0;
    for (const { vectors } of this.loaded.values()) bytes += vectors.bytes;
    return bytes;
  }

  /** The organization's vectors as of `generation`; one sync at a time per organization. */
  private current(orgId: string, generation: string, dimensions: number): Promise<QuantizedVectors> {
    const loaded = this.loaded.get(orgId);
    if (loaded?.generation === generation && loaded.vectors.dimensions === dimensions)
      return Promise.resolve(loaded.vectors);
    const previous = this.syncing.get(orgId) ?? Promise.resolve(undefined);
    const next = previous.then(
      () => this.sync(orgId, generation, dimensions),
      () => this.sync(orgId, generation, dimensions),
    );
    this.syncing.set(orgId, next);
    const settled = () => {
      if (this.syncing.get(orgId) === next) this.syncing.delete(orgId);
    };
    next.then(settled, settled);
    return next;
  }

  private async sync(orgId: string, generation: string, dimensions: number): Promise<QuantizedVectors> {
    let loaded = this.loaded.get(orgId);
    if (loaded?.vectors.dimensions !== dimensions) loaded = await this.load(orgId, generation, dimensions);
    else if (loaded.generation !== generation) loaded = await this.update(orgId, generation, loaded);
    this.loaded.set(orgId, loaded);
    return loaded.vectors;
  }

  /**
   * Reads every vector of the organization: its ids first (from the index on
   * organization and id), then the vectors by pages of listed ids. Paging by
   * `id > last order by id limit n` instead let PostgreSQL, with statistics not yet
   * gathered after a bulk load, sort every later chunk for each page: a load that
   * grew with the square of the organization (25 s at 100k chunks, knowledge-scale).
   * The log's position is read first: a chunk that comes or goes meanwhile is in
   * the log after it, and applying that again changes nothing.
   */
  private async load(orgId: string, generation: string, dimensions: number): Promise<Loaded> {
    const { version } = await this.changes.read(this.db, '', Number.MAX_SAFE_INTEGER);
    const loaded: Loaded = {
      generation,
      vectors: new QuantizedVectors(dimensions),
      unusable: new Set(),
      epoch: version.epoch,
      seen: version.changes,
      usedAt: Date.now(),
    };
    const ids = await this.db
      .selectFrom('chunks')
      .select('id')
      .where('org_id', '=', orgId)
      .orderBy('id')
      .execute();
    for (let i = 0; i < ids.length; i += BATCH)
      keep(
        loaded,
        await this.vectorsOf(
          orgId,
          ids.slice(i, i + BATCH).map((r) => Number(r.id)),
        ),
      );
    return loaded;
  }

  /** The stored vectors of the given chunks (those still there). */
  private vectorsOf(orgId: string, ids: number[]): Promise<Rows> {
    return this.db
      .selectFrom('chunks')
      .select(['id', 'embedding'])
      .where('org_id', '=', orgId)
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * Brings a loaded copy up to date from the organization's rows of the change log
   * after the last one applied; starts over when the log cannot say (another epoch,
   * or rows trimmed since). New vectors are read after the log: chunks never
   * change, they only come and go.
   */
  private async update(orgId: string, generation: string, loaded: Loaded): Promise<Loaded> {
    const { version, changes } = await this.changes.read(this.db, orgId, loaded.seen);
    if (version.epoch !== loaded.epoch || loaded.seen < version.floor)
      return this.load(orgId, generation, loaded.vectors.dimensions);
    const latest = new Map<number, boolean>();
    for (const change of changes) latest.set(change.chunkId, change.added);
    const { vectors, unusable } = loaded;
    const added = [...latest].filter(([id, isAdded]) => isAdded && !vectors.has(id) && !unusable.has(id));
    const rows: Rows = [];
    for (let i = 0; i < added.length; i += BATCH)
      rows.push(
        ...(await this.vectorsOf(
          orgId,
          added.slice(i, i + BATCH).map(([id]) => id),
        )),
      );
    // Applied together, after the reads: a search running meanwhile sees the copy before or after, never half.
    const removed = new Set([...latest].filter(([, isAdded]) => !isAdded).map(([id]) => id));
    vectors.drop(removed);
    for (const id of removed) unusable.delete(id);
    keep(loaded, rows);
    loaded.seen = Math.max(loaded.seen, version.changes);
    loaded.generation = generation;
    return loaded;
  }
}

/** Adds rows to a loaded copy: usable vectors to the matrix, others to the `unusable` set. */
function keep(loaded: Loaded, rows: Rows) {
  const batch: { chunkId: number; vector: Float32Array }[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    if (row.embedding.byteLength === loaded.vectors.dimensions * 4)
      batch.push({ chunkId: id, vector: bytesToVector(row.embedding) });
    else loaded.unusable.add(id);
  }
  loaded.vectors.add(batch);
}
