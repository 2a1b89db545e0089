/**
 * Review decisions name the revision they decide on (its content hash):
 * - `review_events.revision_hash`: the hash each step acted on, so the audit trail says
 *   which text was approved or rejected. Backfilled for every step but `push` (a draft
 *   may have been edited in place after its push; from submission on it never changes).
 * - `documents.submitted_hash`: the hash of the revision that opened the current review
 *   round (the first submission since the last decision), which a decision without a
 *   revision decides on. Backfilled for documents waiting for review.
 * - A retirement's hash becomes the SHA-256 of its (empty) content, like any revision's.
 */
import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

/** SHA-256 of the empty text: what a retirement leaves of the document. */
const EMPTY_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const reviewRevisions: ServiceMigration = {
  async up(db) {
    await db.schema.alterTable('review_events').addColumn('revision_hash', 'text').execute();
    await db.schema.alterTable('documents').addColumn('submitted_hash', 'text').execute();
    await sql`update revisions set hash = ${EMPTY_HASH} where kind = 'retirement'`.execute(db);
    await sql`update review_events set revision_hash =
      (select r.hash from revisions r where r.id = review_events.revision_id)
      where action <> 'push'`.execute(db);
    await sql`update documents set submitted_hash =
      (select r.hash from revisions r where r.id = documents.latest_revision_id)
      where exists (select 1 from revisions r
        where r.id = documents.latest_revision_id and r.state = 'under_review')`.execute(db);
  },
};
