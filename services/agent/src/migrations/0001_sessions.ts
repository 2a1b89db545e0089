/**
 * @module migrations/0001_sessions
 * Sessions (with their lease), their messages, and tickets.
 */
import type { ServiceMigration } from '@xv/platform';

export const sessions: ServiceMigration = {
  async up(db) {
    await db.schema
      .createTable('agent_sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('route', 'text')
      .addColumn('system_prompt', 'text')
      // Bumped by every change, so a cached copy knows when it is stale.
      .addColumn('rev', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_fence', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('agent_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('tools', 'text')
      .addColumn('ts', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agent_messages_session_seq')
      .on('agent_messages')
      .columns(['session_id', 'seq'])
      .unique()
      .execute();
    await db.schema
      .createTable('agent_tickets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('details', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agent_tickets_tenant_created')
      .on('agent_tickets')
      .columns(['tenant', 'created_at'])
      .execute();
  },
};
