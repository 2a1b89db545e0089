/**
 * Service clients: machine accounts holding a bearer token (stored as SHA-256 only) and scopes.
 */
import type { ServiceMigration } from '@xv/platform';

export const serviceClients: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('service_clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm_id', 'text', (c) => c.notNull().references('realms.id'))
      .addColumn('org_id', 'text', (c) => c.references('organizations.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('service_clients_realm_org')
      .on('service_clients')
      .columns(['realm_id', 'org_id'])
      .execute();
  },
};
