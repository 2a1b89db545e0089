/**
 * Leads (one per e-mail address), spent bot challenges and the service's generated secrets.
 */
import type { ServiceMigration } from '@xv/platform';

export const leads: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('leads')
      .addColumn('lead_id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('company', 'text')
      .addColumn('tool', 'text', (c) => c.notNull())
      .addColumn('submissions', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('leads_created_at').on('leads').columns(['created_at', 'lead_id']).execute();

    await db.schema
      .createTable('used_challenges')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('used_challenges_expires_at')
      .on('used_challenges')
      .column('expires_at')
      .execute();

    await db.schema
      .createTable('service_secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
