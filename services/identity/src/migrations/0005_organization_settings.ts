/**
 * Organization settings an administrator changes: `public_assistant` lets anonymous visitors of the
 * agent chat with the organization's public assistant and search the documents it marked public.
 */
import type { ServiceMigration } from '@xv/platform';

export const organizationSettings: ServiceMigration = {
  async up(db) {
    await db.schema
      .alterTable('organizations')
      .addColumn('public_assistant', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
