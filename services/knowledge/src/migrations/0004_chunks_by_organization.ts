/**
 * The approximate index loads an organization's vectors in pages of 1,000 by id
 * (`org_id = ? and id > ? order by id limit 1000`). On PostgreSQL the index on
 * `org_id` alone made each page a bitmap scan of every chunk after the last one
 * read, sorted: 1 s per page at 100k chunks, so a load grew with the square of
 * the organization (24 s at 100k, knowledge-scale benchmark). An index on
 * `(org_id, id)` makes a page a range scan. SQLite's index on `org_id` already
 * holds the rowid in order, so it needs none.
 */
import type { ServiceMigration } from '@xv/platform';

export const chunksByOrganization: ServiceMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await db.schema.createIndex('chunks_org_id').on('chunks').columns(['org_id', 'id']).execute();
    await db.schema.dropIndex('chunks_org').execute();
  },
};
