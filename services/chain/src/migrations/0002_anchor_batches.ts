import type { ServiceMigration } from '@xv/platform';

/**
 * batch_leaves: the queue of fingerprints waiting for a batched anchor. A row is
 * pending while `root` is null; the flush that anchors it sets `root` (an `anchors`
 * ref) and `path` (its Merkle proof, a JSON array) in the same database transaction
 * that stores the signed transaction, so a restart loses nothing and sends nothing twice.
 */
export const anchorBatches: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('batch_leaves')
      .addColumn('fingerprint', 'text', (c) => c.primaryKey())
      .addColumn('chain_id', 'bigint', (c) => c.notNull())
      .addColumn('root', 'text')
      .addColumn('path', 'text')
      .addColumn('queued_at', 'bigint', (c) => c.notNull())
      .addColumn('batched_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('batch_leaves_pending')
      .on('batch_leaves')
      .columns(['chain_id', 'root', 'queued_at'])
      .execute();
  },
};
