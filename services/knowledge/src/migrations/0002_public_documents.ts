/**
 * A document may be marked public by a reviewer: an organization with a public
 * assistant then lets anonymous visitors of the agent search its approved text.
 * Off for every document, existing ones included.
 */
import type { ServiceMigration } from '@xv/platform';

export const publicDocuments: ServiceMigration = {
  async up(db) {
    await db.schema
      .alterTable('documents')
      .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
