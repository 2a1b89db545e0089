import type { ServiceMigration } from '@xv/platform';

/**
 * anchors: one per anchored hash (`ref`), with the nonce it owns for good.
 * anchor_attempts: every signed transaction sent for it (the first one and fee bumps;
 * all share the nonce, so at most one is ever mined).
 * relayer_nonces: the next nonce of each relayer address on each chain.
 */
export const anchors: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('anchors')
      .addColumn('ref', 'text', (c) => c.primaryKey())
      .addColumn('chain_id', 'bigint', (c) => c.notNull())
      .addColumn('from_address', 'text', (c) => c.notNull())
      .addColumn('nonce', 'bigint', (c) => c.notNull())
      .addColumn('tx_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('block_number', 'bigint')
      .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('last_sent_at', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('anchors_nonce')
      .on('anchors')
      .columns(['chain_id', 'from_address', 'nonce'])
      .unique()
      .execute();
    await db.schema.createIndex('anchors_status').on('anchors').column('status').execute();
    await db.schema
      .createTable('anchor_attempts')
      .addColumn('tx_hash', 'text', (c) => c.primaryKey())
      .addColumn('ref', 'text', (c) => c.notNull().references('anchors.ref'))
      .addColumn('nonce', 'bigint', (c) => c.notNull())
      .addColumn('raw_tx', 'text', (c) => c.notNull())
      .addColumn('max_fee_per_gas', 'text', (c) => c.notNull())
      .addColumn('max_priority_fee_per_gas', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('anchor_attempts_ref').on('anchor_attempts').column('ref').execute();
    await db.schema
      .createTable('relayer_nonces')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('chain_id', 'bigint', (c) => c.notNull())
      .addColumn('next_nonce', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('relayer_nonces_pk', ['address', 'chain_id'])
      .execute();
  },
};
