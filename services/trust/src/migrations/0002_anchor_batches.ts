import type { ServiceMigration } from '@xv/platform';

/**
 * receipts.anchor_root / anchor_path: a batched anchor's Merkle root (what the
 * transaction carries) and the receipt's path up to it (JSON array). Null on anchors
 * made before batching: their transaction carries the fingerprint itself.
 * anchor_budget: immediate anchors spent per organization and UTC day.
 */
export const anchorBatches: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('receipts').addColumn('anchor_root', 'text').execute();
    await db.schema.alterTable('receipts').addColumn('anchor_path', 'text').execute();
    await db.schema
      .createTable('anchor_budget')
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('used', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('anchor_budget_pk', ['org_id', 'day'])
      .execute();
  },
};
