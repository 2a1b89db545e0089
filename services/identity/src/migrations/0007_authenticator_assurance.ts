/**
 * Authenticator assurance: when a session last proved AAL2 and AAL3 (changing an authenticator needs a recent
 * proof, NIST SP 800-63B §6.1.2), and the organization setting `require_2fa` (a member may not remove their
 * last second factor). Sessions started before this migration count as never having proved either level.
 */
import type { ServiceMigration } from '@xv/platform';

export const authenticatorAssurance: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('sessions').addColumn('aal2_at', 'bigint').execute();
    await db.schema.alterTable('sessions').addColumn('aal3_at', 'bigint').execute();
    await db.schema
      .alterTable('organizations')
      .addColumn('require_2fa', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
