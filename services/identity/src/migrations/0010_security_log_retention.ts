/**
 * The security log is trimmed by age across all accounts now and then: an index on the time alone keeps
 * that sweep from reading the whole table.
 */
import type { ServiceMigration } from '@xv/platform';

export const securityLogRetention: ServiceMigration = {
  async up(db) {
    await db.schema.createIndex('security_events_at').on('security_events').column('at').execute();
  },
};
