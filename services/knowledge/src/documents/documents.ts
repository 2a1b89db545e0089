/**
 * @module documents/documents
 * The Maker-Checker life of a document, with no HTTP in it.
 *
 * A document is a vault path in one organization; each push that changes it is a
 * revision. The document's `state` is its newest revision's:
 *
 * | newest revision            | trigger                              | next                                  |
 * |----------------------------|--------------------------------------|---------------------------------------|
 * | (none)                     | push                                 | `draft`                               |
 * | any, same hash             | push                                 | unchanged (`unchanged: true`)         |
 * | `draft`, same maker        | push                                 | `draft`, updated in place             |
 * | `draft` / `under_review`   | push (other hash or maker)           | old one `withdrawn`, new `draft`      |
 * | `approved` / `rejected` / `retired` | push                        | new `draft`; the live revision stays  |
 * | `draft`                    | submit                               | `under_review`                        |
 * | `under_review`             | approve (reviewer ≠ maker)           | `approved`, indexed; the previous live revision is `archived` |
 * | `under_review`             | reject (reviewer ≠ maker)            | `rejected`; the live revision stays   |
 * | any, path deleted in vault | retire, nothing live                 | `retired` at once                     |
 * | any, path deleted in vault | retire, a revision live              | retirement `under_review`; approving it takes the document out of search (`retired`) |
 *
 * Every step is written to `review_events`: who, when, what, the content hash it acted on,
 * and the reviewer's note.
 *
 * A decision names the revision it decides on by its content hash (`revision`): the
 * reviewer page sends the hash it rendered. A decision naming none decides on the
 * revision that opened the review round (`documents.submitted_hash`: the first
 * submission since the last decision), so a change after submission is never decided
 * on unseen. When the revision under review is another, the decision is refused
 * (409 `revision_changed`, with the current hash) and nothing changes.
 */
import { newId, transaction } from '@xv/platform';
import type { Kysely, Selectable } from 'kysely';
import type { Caller } from '../caller.js';
import { REVIEW_PERMISSION } from '../caller.js';
import type { KnowledgeDatabase, KnowledgeTables, RevisionTable } from '../db.js';
import { errors } from '../errors.js';
import { parseDocument } from '../search/chunker.js';
import type { KnowledgeIndex } from '../search/knowledge-index.js';
import { contentHash, parseHash, RETIREMENT_HASH } from './hash.js';
import { normalizeVaultPath, titleFromPath } from './vault-path.js';

export const DOCUMENT_STATES = ['draft', 'under_review', 'approved', 'rejected', 'retired'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];
export type Decision = 'approve' | 'reject';

type Revision = Selectable<RevisionTable>;
type Executor = Kysely<KnowledgeTables>;

export interface PushInput {
  path: string;
  content: string;
  hash: string;
  title?: string | undefined;
}

export interface PushResult {
  docId: string;
  state: DocumentState;
  unchanged: boolean;
}

export interface DocumentSummary {
  docId: string;
  path: string;
  title: string;
  state: DocumentState;
  hash: string;
  revision: number;
  maker: string;
  updatedAt: string;
}

export interface HistoryEntry {
  revision: number;
  action: string;
  /** The content hash of the revision this step acted on (null for pushes recorded before it was kept). */
  hash: string | null;
  actor: string;
  actorId: string;
  note: string | null;
  at: string;
}

export interface DocumentDetail extends DocumentSummary {
  content: string;
  kind: 'content' | 'retirement';
  makerId: string;
  /** The approved revision search serves now, when there is one. */
  live: { revision: number; title: string; hash: string; content: string } | null;
  /** Marked public: served to the organization's public assistant while it has an approved revision. */
  public: boolean;
  history: HistoryEntry[];
}

const MAX_TITLE = 300;

/** What a document's newest revision makes it, seen from outside. */
export function documentState(revision: Pick<Revision, 'kind' | 'state'>): DocumentState {
  if (revision.kind === 'retirement' && revision.state === 'approved') return 'retired';
  if (revision.state === 'withdrawn' || revision.state === 'archived') return 'draft'; // never the newest
  return revision.state as DocumentState;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class DocumentStore {
  constructor(
    private readonly database: KnowledgeDatabase,
    private readonly index: KnowledgeIndex,
  ) {}

  private get db() {
    return this.database.kysely;
  }

  async push(caller: Caller, input: PushInput): Promise<PushResult> {
    const path = normalizeVaultPath(input.path);
    if (!path) throw errors.invalid_path();
    const hash = parseHash(input.hash);
    if (!hash || hash !== contentHash(input.content)) throw errors.hash_mismatch();
    const title = (input.title?.trim() || parseDocument(input.content).title || titleFromPath(path)).slice(
      0,
      MAX_TITLE,
    );
    return transaction(this.database, async (trx) => {
      const now = Date.now();
      const doc = await this.lockedByPath(trx, caller.orgId, path);
      if (!doc) {
        const docId = newId('doc');
        const revisionId = newId('rev');
        await trx
          .insertInto('documents')
          .values({
            id: docId,
            org_id: caller.orgId,
            path,
            title,
            latest_revision_id: revisionId,
            live_revision_id: null,
            submitted_hash: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
        await this.insertRevision(trx, caller, {
          id: revisionId,
          docId,
          number: 1,
          title,
          content: input.content,
          hash,
          now,
        });
        await this.record(trx, caller, docId, { id: revisionId, hash }, 'push', null, now);
        return { docId, state: 'draft', unchanged: false };
      }
      const latest = await this.revision(trx, doc.latest_revision_id);
      if (latest.kind === 'content' && latest.hash === hash) {
        return { docId: doc.id, state: documentState(latest), unchanged: true };
      }
      if (latest.state === 'draft' && latest.maker_id === caller.userId) {
        await trx
          .updateTable('revisions')
          .set({ content: input.content, hash, title, updated_at: now })
          .where('id', '=', latest.id)
          .execute();
        await trx.updateTable('documents').set({ title, updated_at: now }).where('id', '=', doc.id).execute();
        await this.record(trx, caller, doc.id, { id: latest.id, hash }, 'push', null, now);
        return { docId: doc.id, state: 'draft', unchanged: false };
      }
      await this.withdrawPending(trx, caller, latest, now);
      const revisionId = newId('rev');
      await this.insertRevision(trx, caller, {
        id: revisionId,
        docId: doc.id,
        number: latest.number + 1,
        title,
        content: input.content,
        hash,
        now,
      });
      await trx
        .updateTable('documents')
        .set({ latest_revision_id: revisionId, title, updated_at: now })
        .where('id', '=', doc.id)
        .execute();
      await this.record(trx, caller, doc.id, { id: revisionId, hash }, 'push', null, now);
      return { docId: doc.id, state: 'draft', unchanged: false };
    });
  }

  async submit(caller: Caller, docId: string): Promise<DocumentState> {
    return transaction(this.database, async (trx): Promise<DocumentState> => {
      const doc = await this.document(trx, caller.orgId, docId, { lock: true });
      const latest = await this.revision(trx, doc.latest_revision_id);
      if (latest.state === 'under_review') return 'under_review';
      if (latest.state !== 'draft') throw errors.not_a_draft();
      const now = Date.now();
      await this.setRevisionState(trx, latest.id, 'under_review', now);
      // The first submission since the last decision opens the round; resubmissions keep it.
      await trx
        .updateTable('documents')
        .set({ updated_at: now, submitted_hash: doc.submitted_hash ?? latest.hash })
        .where('id', '=', doc.id)
        .execute();
      await this.record(trx, caller, doc.id, latest, 'submit', null, now);
      return 'under_review';
    });
  }

  /**
   * Approves or rejects the revision under review, provided it is the one named by
   * `revision` (its content hash), or, when none is named, the one that opened the
   * review round. Otherwise 409 `revision_changed` with the current hash, and nothing changes.
   */
  async decide(
    caller: Caller,
    docId: string,
    decision: Decision,
    note?: string,
    revision?: string,
  ): Promise<DocumentState> {
    if (!caller.permissions.includes(REVIEW_PERMISSION)) throw errors.review_forbidden();
    const named = revision === undefined ? undefined : parseHash(revision);
    if (revision !== undefined && !named) throw errors.invalid_revision();
    const pending = await this.pendingReview(this.db, caller, docId, named);
    // Embed before the transaction: a remote embedder may take its time.
    const prepared =
      decision === 'approve' && pending.kind === 'content'
        ? await this.index.prepare(pending.title, pending.content)
        : undefined;
    return transaction(this.database, async (trx): Promise<DocumentState> => {
      // Checked again under the document's lock: a push may have landed while embedding.
      const decided = await this.pendingReview(trx, caller, docId, named, { lock: true });
      if (decided.id !== pending.id) throw errors.not_under_review('The document changed; reload it.');
      const doc = await this.document(trx, caller.orgId, docId);
      const now = Date.now();
      const trimmed = note?.trim() || null;
      if (decision === 'reject') {
        await this.setRevisionState(trx, decided.id, 'rejected', now);
        await trx
          .updateTable('documents')
          .set({ updated_at: now, submitted_hash: null })
          .where('id', '=', doc.id)
          .execute();
        await this.record(trx, caller, doc.id, decided, 'reject', trimmed, now);
        return 'rejected';
      }
      if (doc.live_revision_id) {
        await this.index.drop(trx, doc.live_revision_id);
        await this.setRevisionState(trx, doc.live_revision_id, 'archived', now);
      }
      if (prepared) {
        await this.index.put(
          trx,
          { orgId: doc.org_id, documentId: doc.id, revisionId: decided.id, title: decided.title },
          prepared,
        );
      }
      await this.setRevisionState(trx, decided.id, 'approved', now);
      await trx
        .updateTable('documents')
        .set({ live_revision_id: prepared ? decided.id : null, updated_at: now, submitted_hash: null })
        .where('id', '=', doc.id)
        .execute();
      await this.record(trx, caller, doc.id, decided, 'approve', trimmed, now);
      return documentState({ kind: decided.kind, state: 'approved' });
    });
  }

  /** The sync client saw the file disappear from the vault. */
  async retire(caller: Caller, rawPath: string): Promise<{ docId: string; state: DocumentState }> {
    const path = normalizeVaultPath(rawPath);
    if (!path) throw errors.invalid_path();
    return transaction(this.database, async (trx) => {
      const doc = await this.lockedByPath(trx, caller.orgId, path);
      if (!doc) throw errors.document_not_found();
      const latest = await this.revision(trx, doc.latest_revision_id);
      if (latest.kind === 'retirement') {
        if (latest.state === 'approved') throw errors.nothing_to_retire();
        if (latest.state === 'under_review') return { docId: doc.id, state: 'under_review' };
      }
      const now = Date.now();
      await this.withdrawPending(trx, caller, latest, now);
      const revisionId = newId('rev');
      const direct = doc.live_revision_id === null;
      await trx
        .insertInto('revisions')
        .values({
          id: revisionId,
          org_id: caller.orgId,
          document_id: doc.id,
          number: latest.number + 1,
          kind: 'retirement',
          state: direct ? 'approved' : 'under_review',
          title: doc.title,
          content: '',
          hash: RETIREMENT_HASH,
          maker_id: caller.userId,
          maker_email: caller.email,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .updateTable('documents')
        .set({
          latest_revision_id: revisionId,
          updated_at: now,
          // A direct retirement ends any review round; a requested one opens one, or joins the open one.
          submitted_hash: direct ? null : (doc.submitted_hash ?? RETIREMENT_HASH),
        })
        .where('id', '=', doc.id)
        .execute();
      const action = direct ? 'retire' : 'retire_requested';
      await this.record(trx, caller, doc.id, { id: revisionId, hash: RETIREMENT_HASH }, action, null, now);
      return { docId: doc.id, state: direct ? 'retired' : 'under_review' };
    });
  }

  async list(
    orgId: string,
    options: { state?: DocumentState | undefined; limit: number; offset: number },
  ): Promise<DocumentSummary[]> {
    let query = this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.latest_revision_id')
      .select([
        'd.id',
        'd.path',
        'd.updated_at',
        'r.title',
        'r.state',
        'r.kind',
        'r.hash',
        'r.number',
        'r.maker_email',
      ])
      .where('d.org_id', '=', orgId);
    const state = options.state;
    if (state === 'approved' || state === 'retired') {
      query = query
        .where('r.state', '=', 'approved')
        .where('r.kind', '=', state === 'approved' ? 'content' : 'retirement');
    } else if (state) {
      query = query.where('r.state', '=', state);
    }
    const rows = await query
      .orderBy('d.updated_at', 'desc')
      .orderBy('d.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map((r) => ({
      docId: r.id,
      path: r.path,
      title: r.title,
      state: documentState(r),
      hash: r.hash,
      revision: r.number,
      maker: r.maker_email,
      updatedAt: iso(r.updated_at),
    }));
  }

  async detail(orgId: string, docId: string): Promise<DocumentDetail> {
    const doc = await this.document(this.db, orgId, docId);
    const latest = await this.revision(this.db, doc.latest_revision_id);
    const live = doc.live_revision_id ? await this.revision(this.db, doc.live_revision_id) : undefined;
    const events = await this.db
      .selectFrom('review_events as e')
      .innerJoin('revisions as r', 'r.id', 'e.revision_id')
      .select(['r.number', 'e.action', 'e.revision_hash', 'e.actor_email', 'e.actor_id', 'e.note', 'e.at'])
      .where('e.document_id', '=', doc.id)
      .where('e.org_id', '=', orgId)
      .orderBy('e.at', 'desc')
      .orderBy('e.id')
      .execute();
    return {
      docId: doc.id,
      path: doc.path,
      title: latest.title,
      state: documentState(latest),
      hash: latest.hash,
      revision: latest.number,
      maker: latest.maker_email,
      makerId: latest.maker_id,
      updatedAt: iso(doc.updated_at),
      kind: latest.kind,
      content: latest.content,
      live: live
        ? { revision: live.number, title: live.title, hash: live.hash, content: live.content }
        : null,
      public: doc.public === 1,
      history: events.map((e) => ({
        revision: e.number,
        action: e.action,
        hash: e.revision_hash,
        actor: e.actor_email,
        actorId: e.actor_id,
        note: e.note,
        at: iso(e.at),
      })),
    };
  }

  /**
   * Marks a document of the reviewer's organization public or not. Only a document
   * with an approved revision can be made public; un-marking is always allowed.
   * The flag belongs to the document, so later approved revisions stay public.
   */
  async setVisibility(caller: Caller, docId: string, visible: boolean): Promise<void> {
    if (!caller.permissions.includes(REVIEW_PERMISSION)) throw errors.review_forbidden();
    const doc = await this.document(this.db, caller.orgId, docId);
    if (visible && !doc.live_revision_id) throw errors.not_approved();
    await this.db
      .updateTable('documents')
      .set({ public: visible ? 1 : 0 })
      .where('org_id', '=', caller.orgId)
      .where('id', '=', doc.id)
      .execute();
  }

  /** Paths and hashes of the organization's documents, for the sync client to compare its vault with. */
  async manifest(orgId: string) {
    const rows = await this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.latest_revision_id')
      .select(['d.id', 'd.path', 'r.hash', 'r.state', 'r.kind'])
      .where('d.org_id', '=', orgId)
      .orderBy('d.path')
      .execute();
    return rows.map((r) => ({
      docId: r.id,
      path: r.path,
      hash: r.hash,
      state: documentState(r),
      kind: r.kind,
    }));
  }

  /** Approved documents (their live revision), for MCP. */
  async listLive(orgId: string, options: { limit: number; offset: number }) {
    const rows = await this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.live_revision_id')
      .select(['d.id', 'd.path', 'r.title', 'r.updated_at', 'r.number'])
      .where('d.org_id', '=', orgId)
      .orderBy('d.path')
      .orderBy('d.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map((r) => ({
      docId: r.id,
      path: r.path,
      title: r.title,
      revision: r.number,
      approvedAt: iso(r.updated_at),
    }));
  }

  async readLive(orgId: string, docId: string) {
    const row = await this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.live_revision_id')
      .select(['d.id', 'd.path', 'r.title', 'r.content'])
      .where('d.org_id', '=', orgId)
      .where('d.id', '=', docId)
      .executeTakeFirst();
    return row ? { docId: row.id, path: row.path, title: row.title, content: row.content } : undefined;
  }

  /**
   * The content of the newest revision of a document with that hash, if it ever had
   * one: the text a reviewer saw, to show them what changed since.
   */
  async revisionContent(orgId: string, docId: string, hash: string): Promise<string | undefined> {
    const digest = parseHash(hash);
    if (!digest) return undefined;
    const row = await this.db
      .selectFrom('revisions')
      .select('content')
      .where('org_id', '=', orgId)
      .where('document_id', '=', docId)
      .where('hash', '=', digest)
      .orderBy('number', 'desc')
      .executeTakeFirst();
    return row?.content;
  }

  /**
   * The revision waiting for this caller's decision. `named` is the hash the reviewer
   * decides on; without it, the hash that opened the review round.
   */
  private async pendingReview(
    db: Executor,
    caller: Caller,
    docId: string,
    named: string | undefined,
    options: { lock?: boolean } = {},
  ): Promise<Revision> {
    const doc = await this.document(db, caller.orgId, docId, options);
    const latest = await this.revision(db, doc.latest_revision_id);
    const changed = () => errors.revision_changed(undefined, { revision: latest.hash });
    // The text named is no longer the newest, whatever became of the review: say so first.
    if (named && latest.hash !== named) throw changed();
    if (latest.state !== 'under_review') throw errors.not_under_review();
    if (latest.maker_id === caller.userId) throw errors.maker_cannot_review();
    if (!named && latest.hash !== (doc.submitted_hash ?? latest.hash)) throw changed();
    return latest;
  }

  /**
   * A document of the organization. `lock` holds its row until the transaction ends on
   * PostgreSQL (SQLite has one writer at a time), so steps on one document never interleave.
   */
  private async document(db: Executor, orgId: string, docId: string, options: { lock?: boolean } = {}) {
    let query = db.selectFrom('documents').selectAll().where('org_id', '=', orgId).where('id', '=', docId);
    if (options.lock && this.database.dialect === 'postgres') query = query.forUpdate();
    const doc = await query.executeTakeFirst();
    if (!doc) throw errors.document_not_found();
    return doc;
  }

  /** The document at a vault path, its row locked on PostgreSQL (see `document`). */
  private lockedByPath(trx: Executor, orgId: string, path: string) {
    let query = trx.selectFrom('documents').selectAll().where('org_id', '=', orgId).where('path', '=', path);
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return query.executeTakeFirst();
  }

  private revision(db: Executor, id: string): Promise<Revision> {
    return db.selectFrom('revisions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  private async insertRevision(
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

  /** A newer push or a retirement replaces work that was still a draft or waiting for review. */
  private async withdrawPending(trx: Executor, caller: Caller, latest: Revision, now: number) {
    if (latest.state !== 'draft' && latest.state !== 'under_review') return;
    await this.setRevisionState(trx, latest.id, 'withdrawn', now);
    await this.record(trx, caller, latest.document_id, latest, 'withdrawn', null, now);
  }

  private async setRevisionState(trx: Executor, id: string, state: string, now: number) {
    await trx.updateTable('revisions').set({ state, updated_at: now }).where('id', '=', id).execute();
  }

  private async record(
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
}
