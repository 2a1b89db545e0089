/**
 * E-mail and onboarding: the development outbox (messages kept here when no SMTP server is configured) and
 * invitations to join an organization (only the SHA-256 of each link's token is stored).
 */
import type { ServiceMigration } from '@xv/platform';

export const mailAndInvitations: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('realm_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('accepted_at', 'bigint')
      .addColumn('accepted_by', 'text')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('invitations_org').on('invitations').column('org_id').execute();
  },
};
