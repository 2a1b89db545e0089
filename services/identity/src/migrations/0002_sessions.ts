/**
 * Sign-in sessions (stored by token hash) and pending second-factor challenges.
 */
import type { ServiceMigration } from '@xv/platform';

export const sessions: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('amr', 'text', (c) => c.notNull())
      .addColumn('aal', 'text', (c) => c.notNull())
      .addColumn('auth_time', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('mfa_challenges')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('redirect', 'text')
      .addColumn('wanted_aal', 'text')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
  },
};
