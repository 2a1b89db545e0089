/**
 * Realms, organizations, users and their memberships, and the default realm.
 */
import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

export const accounts: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('realms')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into realms (id, name, created_at) values ('default', 'Default', ${Date.now()})`.execute(
      db,
    );

    await db.schema
      .createTable('organizations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull().references('realms.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull())
      .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('verified_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('organizations_realm_slug')
      .unique()
      .on('organizations')
      .columns(['realm_id', 'slug'])
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull().references('realms.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('avatar_color', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('totp_secret', 'text')
      .addColumn('totp_pending_secret', 'text')
      .addColumn('totp_last_step', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    // One account per e-mail address and realm; e-mails are stored lowercased.
    await db.schema
      .createIndex('users_realm_email')
      .unique()
      .on('users')
      .columns(['realm_id', 'email'])
      .execute();

    await db.schema
      .createTable('memberships')
      .addColumn('org_id', 'text', (c) => c.notNull().references('organizations.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('memberships_pk', ['org_id', 'user_id'])
      .execute();
    await db.schema.createIndex('memberships_user').on('memberships').column('user_id').execute();
  },
};
