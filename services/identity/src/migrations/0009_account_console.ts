/**
 * The account console: the device and address of each session, whether the e-mail address is verified,
 * single-use e-mailed tokens (password reset, address check; stored as SHA-256) and the security log.
 */
import type { ServiceMigration } from '@xv/platform';

export const accountConsole: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
    await db.schema.alterTable('users').addColumn('email_verified_at', 'bigint').execute();
    await db.schema
      .createTable('account_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema
      .createTable('security_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('detail', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('security_events_user')
      .on('security_events')
      .columns(['user_id', 'at'])
      .execute();
  },
};
