/**
 * @module migrations/0002_owners
 * Every session and ticket gets an owner (`user:<id>`, `anon:<hash>`, or '' for a
 * caller without cookies), and a ticket the organization it was opened for.
 * Rows from before keep owner '': they stay reachable by their id alone, as before.
 * A session's row key stays `agent_sessions.id`: `<owner>/<id>` for an owned
 * session, the bare id otherwise (an id never holds `/`, so the two never meet).
 */
import type { ServiceMigration } from '@xv/platform';

export const owners: ServiceMigration = {
  async up(db) {
    await db.schema
      .alterTable('agent_sessions')
      .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('agent_tickets')
      .addColumn('owner', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema.alterTable('agent_tickets').addColumn('org_id', 'text').execute();
    await db.schema
      .createIndex('agent_tickets_owner_created')
      .on('agent_tickets')
      .columns(['owner', 'created_at'])
      .execute();
    await db.schema
      .createIndex('agent_tickets_org_created')
      .on('agent_tickets')
      .columns(['org_id', 'created_at'])
      .execute();
  },
};
