/**
 * The change log of the searchable chunks (search/change-log.ts): one row per chunk
 * that entered or left search, numbered in commit order, with what the lexical
 * statistics need of it (its lengths and its lexical entry). A searching instance
 * reads the rows after the last one it applied, so the work after an approval or
 * a retirement follows the size of the change, not of the organization.
 */
import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

export const chunkChanges: ServiceMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('chunk_changes')
      .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('chunk_id', 'bigint', (c) => c.notNull())
      .addColumn('added', 'integer', (c) => c.notNull())
      .addColumn('title_length', 'integer', (c) => c.notNull())
      .addColumn('heading_length', 'integer', (c) => c.notNull())
      .addColumn('text_length', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('chunk_changes_org').on('chunk_changes').columns(['org_id', 'seq']).execute();
    if (dialect === 'sqlite') {
      // rowid = seq; the same analysis as chunks_fts, so a word is counted in the log as in the index.
      await sql`create virtual table chunk_changes_fts using fts5(org, title, heading_path, text, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
    } else {
      await sql`alter table chunk_changes add column search_vector tsvector`.execute(db);
    }
  },
};
