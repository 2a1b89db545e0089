/**
 * @module documents/records
 * The rows a document is made of, read and written the same way by the review
 * workflow and the read models: the document, its revisions, its review events.
 */
import { type DialectName, newId } from '@xv/platform';
import type { Kysely } from 'kysely';
import type { Caller } from '../access/caller.js';
import type { KnowledgeTables } from '../db.js';
import { errors } from '../errors.js';
import type { Revision } from './model.js';

/** The database or a transaction on it. */
export type Executor = Kysely<KnowledgeTables>;

/**
 * A document of the organization. `lock` holds its row until the transaction ends on
 * PostgreSQL (SQLite has one writer at a time), so steps on one document never interleave.
 */
export async function findDocument(
  db: Executor,
  dialect: DialectName,
  orgId: string,
  docId: string,
  options: { lock?: boolean } = {},
) {
  let query = db.selectFrom('documents').selectAll().where('org_id', '=', orgId).where('id', '=', docId);
  if (options.lock && dialect === 'postgres') query = query.forUpdate();
  const doc = await query.executeTakeFirst();
  if (!doc) throw errors.document_not_found();
  return doc;
}

/** The document at a vault path, its row locked on PostgreSQL (see `findDocument`). */
export function lockedByPath(trx: Executor, dialect: DialectName, orgId: string, path: string) {
  let query = trx.selectFrom('documents').selectAll().where('org_id', '=', orgId).where('path', '=', path);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

export function findRevision(db: Executor, id: string): Promise<Revision> {
  return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A new content revision, a draft of the caller's. */
export async function insertRevision(
  trx: Executor,
  caller: Caller,
  r: {
    id: string;
    docId: string;
    number: number;
    title: string;
    content: string;
    hash: string;
    now: number;
  },
) {
  await trx
    .insertInto('revisions')
    .values({
      id: r.id,
      org_id: caller.orgId,
      document_id: r.docId,
      number: r.number,
      kind: 'content',
      state: 'draft',
      title: r.title,
      content: r.content,
      hash: r.hash,
      maker_id: caller.userId,
      maker_email: caller.email,
      created_at: r.now,
      updated_at: r.now,
    })
    .execute();
}

export async function setRevisionState(trx: Executor, id: string, state: string, now: number) {
  await trx.updateTable('revisions').set({ state, updated_at: now }).where('id', '=', id).execute();
}

/** Writes one step of the document's life to `review_events`. */
export async function recordEvent(
  trx: Executor,
  caller: Caller,
  docId: string,
  revision: Pick<Revision, 'id' | 'hash'>,
  action: string,
  note: string | null,
  at: number,
) {
  await trx
    .insertInto('review_events')
    .values({
      id: newId('evt'),
      org_id: caller.orgId,
      document_id: docId,
      revision_id: revision.id,
      revision_hash: revision.hash,
      action,
      actor_id: caller.userId,
      actor_email: caller.email,
      note,
      at,
    })
    .execute();
}
