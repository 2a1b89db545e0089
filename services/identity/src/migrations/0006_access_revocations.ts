/**
 * Access revocations: the revocation epoch (one row, a counter bumped in the same
 * transaction as every change that takes access away, which other services and
 * other identity instances watch), and disabled users.
 */
import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

export const accessRevocations: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('access_revocations')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('epoch', 'bigint', (c) => c.notNull())
      .addColumn('changed_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into access_revocations (id, epoch, changed_at) values (1, 0, ${Date.now()})`.execute(
      db,
    );
    await db.schema.alterTable('users').addColumn('disabled_at', 'bigint').execute();
  },
};
