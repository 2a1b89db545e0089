/**
 * @module search/vector-index
 * Nearest-neighbour search over chunk embeddings, behind one interface with three
 * backends chosen at start-up:
 * - `sqlite-vec`: a `vec0` table with `distance_metric=cosine`, partitioned by
 *   organization, queried with `MATCH … AND k = ?` (never `ORDER BY vec_distance`,
 *   which scans everything). sqlite-vec 0.1.9 answers that by an exact scan, so
 *   organizations with `approximateFrom` chunks or more are searched by the
 *   `ApproximateIndex` (search/approximate-index.ts) instead;
 * - `pgvector`: a `vector(n)` column with an HNSW index, used when the `vector`
 *   extension is available in PostgreSQL;
 * - `scan`: PostgreSQL without the extension. It reads the portable float32 copy in
 *   `chunks.embedding` once per organization into memory and scans it exactly;
 *   the copy is reloaded when the index generation moves (any instance bumps it).
 * Distances are cosine distances (1 − cosine similarity).
 */
import type { Database, DialectName } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import * as sqliteVec from 'sqlite-vec';
import type { KnowledgeDatabase, KnowledgeTables } from '../db.js';
import { ApproximateIndex, type ApproximateTuning } from './approximate-index.js';
import { bytesToVector, vectorToBytes } from './embedder.js';
import { GenerationCache } from './generation-cache.js';
import type { Neighbour } from './neighbour.js';

export type VectorBackend = 'sqlite-vec' | 'pgvector' | 'scan';
type Executor = Kysely<KnowledgeTables>;

export interface VectorRow {
  chunkId: number;
  orgId: string;
  vector: Float32Array;
}

export type { Neighbour } from './neighbour.js';

export interface VectorIndex {
  readonly backend: VectorBackend;
  /** Creates the storage for vectors of this dimension; `fresh` drops what was there first. */
  prepare(db: Executor, dimensions: number, fresh?: boolean): Promise<void>;
  add(db: Executor, rows: VectorRow[]): Promise<void>;
  remove(db: Executor, chunkIds: number[]): Promise<void>;
  /** `size`: the organization's chunk count when the caller knows it (counted otherwise). */
  nearest(
    orgId: string,
    vector: Float32Array,
    k: number,
    generation: string,
    size?: number,
  ): Promise<Neighbour[]>;
}

const withVectorExtension = new WeakSet<object>();

/**
 * Loads sqlite-vec into a SQLite connection. It must happen before anything
 * reads the schema (migrations do): a `vec0` table is unreadable without it.
 */
export function loadVectorExtension(database: Pick<Database, 'dialect' | 'sqlite'>): void {
  if (database.dialect !== 'sqlite' || !database.sqlite || withVectorExtension.has(database.sqlite)) return;
  sqliteVec.load(database.sqlite);
  withVectorExtension.add(database.sqlite);
}

export interface VectorTuning extends ApproximateTuning {
  /** Organizations with at least this many chunks are searched approximately (sqlite-vec backend). */
  approximateFrom: number;
}

/**
 * From 5,000 chunks, where sqlite-vec's exact scan of 384 dimensions takes about
 * 3 ms; the memory copy is then about 3 MB (one byte per dimension and slot).
 */
export const APPROXIMATE_FROM = 5_000;

/** Picks the best backend the database offers (or `scan` when asked to). */
export async function openVectorIndex(
  database: KnowledgeDatabase,
  preferred: 'auto' | 'scan' = 'auto',
  tuning: Partial<VectorTuning> = {},
): Promise<VectorIndex> {
  const scan = () => new ScanIndex(database.kysely, tuning, database.dialect);
  if (preferred === 'scan') return scan();
  if (database.dialect === 'sqlite') {
    if (database.sqlite) {
      loadVectorExtension(database);
      return new SqliteVecIndex(database.kysely, tuning);
    }
    return scan();
  }
  const schema = await pgvectorSchema(database.kysely);
  return schema ? new PgvectorIndex(database.kysely, schema) : scan();
}

/** The schema holding the `vector` extension, installing it when allowed; undefined when unavailable. */
async function pgvectorSchema(db: Executor): Promise<string | undefined> {
  const find = async () =>
    (
      await sql<{
        schema: string;
      }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector'`.execute(
        db,
      )
    ).rows[0]?.schema;
  const installed = await find();
  if (installed) return installed;
  const available = await sql`select 1 from pg_available_extensions where name = 'vector'`.execute(db);
  if (available.rows.length === 0) return undefined;
  try {
    await sql`create extension if not exists vector`.execute(db);
  } catch {
    return undefined; // no privilege to install it: fall back to the exact scan
  }
  return find();
}

/**
 * sqlite-vec 0.1.9 answers a KNN query by an exact scan of the organization's
 * partition: its cost grows with chunks × dimension. It serves organizations
 * below `approximateFrom` chunks; larger ones go to the in-memory
 * `ApproximateIndex`. Approximations inside sqlite-vec were measured and
 * rejected (docs/knowledge.md): its bit-vector KNN slows down as k grows (15 ms
 * for k = 100 at 100k chunks, 190 ms for k = 1,600), reading a few hundred rows
 * of a `vec0` table by id scans it, and an inverted-file layout (k-means lists as
 * a partition key, which `IN` can probe) found a third of the true neighbours at
 * 16 probed lists of 316.
 */
export class SqliteVecIndex implements VectorIndex {
  readonly backend = 'sqlite-vec' as const;
  readonly approximate: ApproximateIndex;
  private readonly approximateFrom: number;
  private readonly sizes = new GenerationCache<number>();

  constructor(
    private readonly db: Executor,
    tuning: Partial<VectorTuning> = {},
  ) {
    this.approximate = new ApproximateIndex(db, tuning, 'sqlite');
    this.approximateFrom = tuning.approximateFrom ?? APPROXIMATE_FROM;
  }

  async prepare(db: Executor, dimensions: number, fresh = false) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error('invalid vector dimension');
    if (fresh) await sql`drop table if exists chunk_vectors`.execute(db);
    await sql
      .raw(
        `create virtual table if not exists chunk_vectors using vec0(chunk_id integer primary key, org_id text partition key, embedding float[${dimensions}] distance_metric=cosine)`,
      )
      .execute(db);
  }

  async add(db: Executor, rows: VectorRow[]) {
    for (const row of rows) {
      // vec0 wants an integer-typed key: better-sqlite3 binds a BigInt as one.
      await sql`insert into chunk_vectors (chunk_id, org_id, embedding) values (${BigInt(row.chunkId)}, ${row.orgId}, ${vectorToBytes(row.vector)})`.execute(
        db,
      );
    }
  }

  async remove(db: Executor, chunkIds: number[]) {
    for (const id of chunkIds)
      await sql`delete from chunk_vectors where chunk_id = ${BigInt(id)}`.execute(db);
  }

  async nearest(orgId: string, vector: Float32Array, k: number, generation: string, size?: number) {
    if ((size ?? (await organizationSize(this.db, this.sizes, orgId, generation))) >= this.approximateFrom)
      return this.approximate.nearest(orgId, vector, k, generation);
    this.approximate.forget(orgId);
    return this.exactNearest(orgId, vector, k);
  }

  /** sqlite-vec's exact KNN over the organization's partition. */
  async exactNearest(orgId: string, vector: Float32Array, k: number) {
    const result =
      await sql<Neighbour>`select chunk_id as "chunkId", distance from chunk_vectors where embedding match ${vectorToBytes(vector)} and k = ${k} and org_id = ${orgId}`.execute(
        this.db,
      );
    return result.rows.map((r) => ({ chunkId: Number(r.chunkId), distance: r.distance }));
  }
}

class PgvectorIndex implements VectorIndex {
  readonly backend = 'pgvector' as const;
  constructor(
    private readonly db: Executor,
    private readonly schema: string,
  ) {}

  private get type() {
    return `"${this.schema}".vector`;
  }

  async prepare(db: Executor, dimensions: number, fresh = false) {
    if (!Number.isInteger(dimensions) || dimensions <= 0) throw new Error('invalid vector dimension');
    if (fresh) await sql`drop table if exists chunk_vectors`.execute(db);
    await sql
      .raw(
        `create table if not exists chunk_vectors (chunk_id bigint primary key, org_id text not null, embedding ${this.type}(${dimensions}) not null)`,
      )
      .execute(db);
    await sql
      .raw(
        `create index if not exists chunk_vectors_hnsw on chunk_vectors using hnsw (embedding "${this.schema}".vector_cosine_ops)`,
      )
      .execute(db);
    await sql`create index if not exists chunk_vectors_org on chunk_vectors (org_id)`.execute(db);
  }

  async add(db: Executor, rows: VectorRow[]) {
    for (const row of rows) {
      await sql`insert into chunk_vectors (chunk_id, org_id, embedding) values (${row.chunkId}, ${row.orgId}, ${literal(row.vector)}::${sql.raw(this.type)})`.execute(
        db,
      );
    }
  }

  async remove(db: Executor, chunkIds: number[]) {
    if (chunkIds.length === 0) return;
    await sql`delete from chunk_vectors where chunk_id in (${sql.join(chunkIds)})`.execute(db);
  }

  async nearest(orgId: string, vector: Float32Array, k: number) {
    const distance = sql`embedding operator(${sql.raw(`"${this.schema}".<=>`)}) ${literal(vector)}::${sql.raw(this.type)}`;
    // HNSW filters after the graph walk; iterative scans (pgvector ≥ 0.8) keep walking until k rows of this organization are found.
    return this.db.transaction().execute(async (trx) => {
      await sql`select set_config('hnsw.iterative_scan', 'relaxed_order', true)`.execute(trx).catch(() => {});
      const result = await sql<{
        chunkId: number;
        distance: number;
      }>`select chunk_id as "chunkId", ${distance} as distance from chunk_vectors where org_id = ${orgId} order by ${distance} limit ${k}`.execute(
        trx,
      );
      return result.rows
        .map((r) => ({ chunkId: Number(r.chunkId), distance: Number(r.distance) }))
        .sort((a, b) => a.distance - b.distance);
    });
  }
}

/** The organization's chunk count, cached per index generation. */
async function organizationSize(
  db: Executor,
  sizes: GenerationCache<number>,
  orgId: string,
  generation: string,
): Promise<number> {
  return sizes.get(generation, orgId, async () =>
    Number(
      (
        await db
          .selectFrom('chunks')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('org_id', '=', orgId)
          .executeTakeFirstOrThrow()
      ).n,
    ),
  );
}

function literal(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

interface OrgMatrix {
  generation: string;
  ids: number[];
  matrix: Float32Array;
  dimensions: number;
}

/**
 * Search in memory over the portable copy of the embeddings: exact for
 * organizations below `approximateFrom` chunks, the `ApproximateIndex` above.
 * An exact scan of a large organization holds its float32 copy (1.5 GB at 1M
 * chunks of 384 dimensions), reloads all of it after every approval, and reads
 * all of it per search (measured by the knowledge-scale benchmark).
 */
export class ScanIndex implements VectorIndex {
  readonly backend = 'scan' as const;
  readonly approximate: ApproximateIndex;
  private readonly approximateFrom: number;
  private readonly cache = new Map<string, OrgMatrix>();
  private readonly sizes = new GenerationCache<number>();

  constructor(
    private readonly db: Executor,
    tuning: Partial<VectorTuning> = {},
    dialect: DialectName = 'postgres',
  ) {
    this.approximate = new ApproximateIndex(db, tuning, dialect);
    this.approximateFrom = tuning.approximateFrom ?? APPROXIMATE_FROM;
  }

  async prepare(_db: Executor, _dimensions: number, fresh = false) {
    if (fresh) this.cache.clear();
  }
  async add() {}
  async remove() {}

  async nearest(orgId: string, vector: Float32Array, k: number, generation: string, size?: number) {
    if ((size ?? (await organizationSize(this.db, this.sizes, orgId, generation))) >= this.approximateFrom) {
      this.cache.delete(orgId);
      return this.approximate.nearest(orgId, vector, k, generation);
    }
    this.approximate.forget(orgId);
    return this.exactNearest(orgId, vector, k, generation);
  }

  /** The exact scan, whatever the organization's size. */
  async exactNearest(orgId: string, vector: Float32Array, k: number, generation: string) {
    let entry = this.cache.get(orgId);
    if (!entry || entry.generation !== generation) {
      entry = await this.load(orgId, generation, vector.length);
      this.cache.set(orgId, entry);
    }
    return scanNearest(entry.ids, entry.matrix, entry.dimensions, vector, k);
  }

  private async load(orgId: string, generation: string, dimensions: number): Promise<OrgMatrix> {
    const rows = await this.db
      .selectFrom('chunks')
      .select(['id', 'embedding'])
      .where('org_id', '=', orgId)
      .execute();
    const usable = rows.filter((r) => r.embedding.byteLength === dimensions * 4);
    const matrix = new Float32Array(usable.length * dimensions);
    for (const [i, r] of usable.entries()) matrix.set(bytesToVector(r.embedding), i * dimensions);
    return { generation, ids: usable.map((r) => Number(r.id)), matrix, dimensions };
  }
}

/** Brute-force cosine search over a row-major matrix of unit vectors: the reference every index is checked against. */
export function scanNearest(
  ids: number[],
  matrix: Float32Array,
  dimensions: number,
  query: Float32Array,
  k: number,
): Neighbour[] {
  const best: Neighbour[] = [];
  for (let row = 0; row < ids.length; row++) {
    let dot = 0;
    const offset = row * dimensions;
    for (let d = 0; d < dimensions; d++) dot += matrix[offset + d]! * query[d]!;
    const distance = 1 - dot;
    if (best.length < k || distance < best[best.length - 1]!.distance) {
      let at = best.length;
      while (at > 0 && best[at - 1]!.distance > distance) at--;
      best.splice(at, 0, { chunkId: ids[row]!, distance });
      if (best.length > k) best.pop();
    }
  }
  return best;
}
