/**
 * @module search/change-log
 * Which chunks entered and left search, in commit order, so that a searching
 * instance brings its memory copies (the approximate index's vectors, the lexical
 * statistics) up to date by reading what changed since it last looked: the work
 * after an approval follows the size of the change, not of the organization.
 *
 * Rows are written by the transaction that adds or removes the chunks. On
 * PostgreSQL it first takes a transaction-scoped advisory lock (one per schema),
 * held until commit, so writers take turns from there: a row's `seq` is drawn only
 * after every lower one committed, and a reader that sees a `seq` has seen all
 * below it (PostgreSQL's sequences otherwise hand out numbers before commit, and
 * a reader would step over a lower number committed late). On SQLite one writer
 * at a time gives the same order.
 *
 * `index_state` holds the last `seq` written (`changes`), the number up to which
 * old rows may have been trimmed (`changes_floor`: a copy last brought up to date
 * below it starts over), and an epoch that a wholesale rewrite (a reindex, a new
 * lexical analysis) renews, so every copy starts over.
 */
import { type DialectName, newId } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import type { KnowledgeTables } from '../db.js';

type Executor = Kysely<KnowledgeTables>;

/** What a search reads of the index's state before it starts. */
export interface IndexVersion {
  /** Moves with every change to the index, from any instance. */
  generation: string;
  /** Renewed when the whole index was rewritten: every copy starts over. */
  epoch: string;
  /** Rows up to this `seq` may be gone. */
  floor: number;
  /** The last `seq` written. */
  changes: number;
}

export interface ChunkChange {
  chunkId: number;
  added: boolean;
}

/** Rows kept in the log; an instance that fell further behind reads its organization again. */
export const LOG_KEEP = 100_000;

export function versionOf(state: Map<string, string>): IndexVersion {
  return {
    generation: state.get('generation') ?? '',
    epoch: state.get('changes_epoch') ?? '',
    floor: Number(state.get('changes_floor') ?? 0),
    changes: Number(state.get('changes') ?? 0),
  };
}

export class ChangeLog {
  constructor(
    private readonly dialect: DialectName,
    private readonly keep = LOG_KEEP,
  ) {}

  /** Logs chunks just written (with their lexical entries); call after the generation moved. */
  recordAdded(db: Executor, chunkIds: number[]): Promise<void> {
    return this.record(db, chunkIds, 1);
  }

  /** Logs chunks about to be deleted (before their lexical entries go); call after the generation moved. */
  recordRemoved(db: Executor, chunkIds: number[]): Promise<void> {
    return this.record(db, chunkIds, 0);
  }

  /** Forgets the log after a wholesale rewrite: every copy starts over. */
  async reset(db: Executor): Promise<void> {
    if (this.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.chunk_changes'))`.execute(db);
    await db.deleteFrom('chunk_changes').execute();
    if (this.dialect === 'sqlite') await sql`delete from chunk_changes_fts`.execute(db);
    await setState(db, 'changes_epoch', newId('epoch'));
  }

  /** The organization's changes after `after`, with the version they belong to, in one snapshot. */
  async read(
    db: Executor,
    orgId: string,
    after: number,
  ): Promise<{ version: IndexVersion; changes: ChunkChange[] }> {
    let transaction = db.transaction();
    if (this.dialect === 'postgres') transaction = transaction.setIsolationLevel('repeatable read');
    return transaction.execute(async (trx) => {
      const state = await trx.selectFrom('index_state').select(['key', 'value']).execute();
      const rows = await trx
        .selectFrom('chunk_changes')
        .select(['chunk_id', 'added'])
        .where('org_id', '=', orgId)
        .where('seq', '>', after)
        .orderBy('seq')
        .execute();
      return {
        version: versionOf(new Map(state.map((r) => [r.key, r.value]))),
        changes: rows.map((r) => ({ chunkId: Number(r.chunk_id), added: Number(r.added) === 1 })),
      };
    });
  }

  private async record(db: Executor, chunkIds: number[], added: 0 | 1) {
    if (chunkIds.length === 0) return;
    if (this.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.chunk_changes'))`.execute(db);
    const before = await lastSeq(db);
    const lexical = this.dialect === 'postgres' ? sql`, c.search_vector` : sql``;
    await sql`insert into chunk_changes (org_id, chunk_id, added, title_length, heading_length, text_length${this.dialect === 'postgres' ? sql`, search_vector` : sql``})
      select c.org_id, c.id, ${added}, length(r.title), length(c.heading_path), length(c.text)${lexical}
      from chunks c join revisions r on r.id = c.revision_id where c.id in (${sql.join(chunkIds)}) order by c.id`.execute(
      db,
    );
    if (this.dialect === 'sqlite') {
      // The folded text as chunks_fts holds it, so a word is counted in the log as in the index.
      await sql`insert into chunk_changes_fts (rowid, org, title, heading_path, text)
        select l.seq, f.org, f.title, f.heading_path, f.text from chunk_changes l join chunks_fts f on f.rowid = l.chunk_id
        where l.seq > ${before}`.execute(db);
    }
    const last = await lastSeq(db);
    await setState(db, 'changes', String(last));
    await this.trim(db, last - this.keep);
  }

  /** Drops rows up to `through`, when there are any. */
  private async trim(db: Executor, through: number) {
    if (through <= 0) return;
    const { numDeletedRows } = await db
      .deleteFrom('chunk_changes')
      .where('seq', '<=', through)
      .executeTakeFirst();
    if (numDeletedRows === 0n) return;
    if (this.dialect === 'sqlite')
      await sql`delete from chunk_changes_fts where rowid <= ${through}`.execute(db);
    await setState(db, 'changes_floor', String(through));
  }
}

async function lastSeq(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('chunk_changes')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}

async function setState(db: Executor, key: string, value: string) {
  await db
    .insertInto('index_state')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();
}
