/**
 * @module documents/review
 * The Maker-Checker workflow of a document (review rules and writes), with no HTTP
 * in it; what documents look like to readers is in `read-model.ts`.
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
import { type Caller, requireReviewer } from '../access/caller.js';
import type { KnowledgeDatabase } from '../db.js';
import { errors } from '../errors.js';
import { parseDocument } from '../search/chunker.js';
import type { KnowledgeIndex } from '../search/knowledge-index.js';
import { contentHash, parseHash, RETIREMENT_HASH } from './hash.js';
import {
  type Decision,
  type DocumentState,
  documentState,
  type PushInput,
  type PushResult,
  type Revision,
} from './model.js';
import {
  type Executor,
  findDocument,
  findRevision,
  insertRevision,
  lockedByPath,
  recordEvent,
  setRevisionState,
} from './records.js';
import { normalizeVaultPath, titleFromPath } from './vault-path.js';

export type { Decision, DocumentState } from './model.js';

const MAX_TITLE = 300;

export class ReviewWorkflow {
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
      const doc = await lockedByPath(trx, this.database.dialect, caller.orgId, path);
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
        await insertRevision(trx, caller, {
          id: revisionId,
          docId,
          number: 1,
          title,
          content: input.content,
          hash,
          now,
        });
        await recordEvent(trx, caller, docId, { id: revisionId, hash }, 'push', null, now);
        return { docId, state: 'draft', unchanged: false };
      }
      const latest = await findRevision(trx, doc.latest_revision_id);
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
        await recordEvent(trx, caller, doc.id, { id: latest.id, hash }, 'push', null, now);
        return { docId: doc.id, state: 'draft', unchanged: false };
      }
      await this.withdrawPending(trx, caller, latest, now);
      const revisionId = newId('rev');
      await insertRevision(trx, caller, {
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
      await recordEvent(trx, caller, doc.id, { id: revisionId, hash }, 'push', null, now);
      return { docId: doc.id, state: 'draft', unchanged: false };
    });
  }

  async submit(caller: Caller, docId: string): Promise<DocumentState> {
    return transaction(this.database, async (trx): Promise<DocumentState> => {
      const doc = await this.findDocument(trx, caller.orgId, docId, { lock: true });
      const latest = await findRevision(trx, doc.latest_revision_id);
      if (latest.state === 'under_review') return 'under_review';
      if (latest.state !== 'draft') throw errors.not_a_draft();
      const now = Date.now();
      await setRevisionState(trx, latest.id, 'under_review', now);
      // The first submission since the last decision opens the round; resubmissions keep it.
      await trx
        .updateTable('documents')
        .set({ updated_at: now, submitted_hash: doc.submitted_hash ?? latest.hash })
        .where('id', '=', doc.id)
        .execute();
      await recordEvent(trx, caller, doc.id, latest, 'submit', null, now);
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
    requireReviewer(caller);
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
      const doc = await this.findDocument(trx, caller.orgId, docId);
      const now = Date.now();
      const trimmed = note?.trim() || null;
      if (decision === 'reject') {
        await setRevisionState(trx, decided.id, 'rejected', now);
        await trx
          .updateTable('documents')
          .set({ updated_at: now, submitted_hash: null })
          .where('id', '=', doc.id)
          .execute();
        await recordEvent(trx, caller, doc.id, decided, 'reject', trimmed, now);
        return 'rejected';
      }
      if (doc.live_revision_id) {
        await this.index.drop(trx, doc.live_revision_id);
        await setRevisionState(trx, doc.live_revision_id, 'archived', now);
      }
      if (prepared) {
        await this.index.put(
          trx,
          { orgId: doc.org_id, documentId: doc.id, revisionId: decided.id, title: decided.title },
          prepared,
        );
      }
      await setRevisionState(trx, decided.id, 'approved', now);
      await trx
        .updateTable('documents')
        .set({ live_revision_id: prepared ? decided.id : null, updated_at: now, submitted_hash: null })
        .where('id', '=', doc.id)
        .execute();
      await recordEvent(trx, caller, doc.id, decided, 'approve', trimmed, now);
      return documentState({ kind: decided.kind, state: 'approved' });
    });
  }

  /** The sync client saw the file disappear from the vault. */
  async retire(caller: Caller, rawPath: string): Promise<{ docId: string; state: DocumentState }> {
    const path = normalizeVaultPath(rawPath);
    if (!path) throw errors.invalid_path();
    return transaction(this.database, async (trx) => {
      const doc = await lockedByPath(trx, this.database.dialect, caller.orgId, path);
      if (!doc) throw errors.document_not_found();
      const latest = await findRevision(trx, doc.latest_revision_id);
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
      await recordEvent(trx, caller, doc.id, { id: revisionId, hash: RETIREMENT_HASH }, action, null, now);
      return { docId: doc.id, state: direct ? 'retired' : 'under_review' };
    });
  }

  /**
   * Marks a document of the reviewer's organization public or not. Only a document
   * with an approved revision can be made public; un-marking is always allowed.
   * The flag belongs to the document, so later approved revisions stay public.
   */
  async setVisibility(caller: Caller, docId: string, visible: boolean): Promise<void> {
    requireReviewer(caller);
    const doc = await this.findDocument(this.db, caller.orgId, docId);
    if (visible && !doc.live_revision_id) throw errors.not_approved();
    await this.db
      .updateTable('documents')
      .set({ public: visible ? 1 : 0 })
      .where('org_id', '=', caller.orgId)
      .where('id', '=', doc.id)
      .execute();
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
    const doc = await this.findDocument(db, caller.orgId, docId, options);
    const latest = await findRevision(db, doc.latest_revision_id);
    const changed = () => errors.revision_changed(undefined, { revision: latest.hash });
    // The text named is no longer the newest, whatever became of the review: say so first.
    if (named && latest.hash !== named) throw changed();
    if (latest.state !== 'under_review') throw errors.not_under_review();
    if (latest.maker_id === caller.userId) throw errors.maker_cannot_review();
    if (!named && latest.hash !== (doc.submitted_hash ?? latest.hash)) throw changed();
    return latest;
  }

  /** A newer push or a retirement replaces work that was still a draft or waiting for review. */
  private async withdrawPending(trx: Executor, caller: Caller, latest: Revision, now: number) {
    if (latest.state !== 'draft' && latest.state !== 'under_review') return;
    await setRevisionState(trx, latest.id, 'withdrawn', now);
    await recordEvent(trx, caller, latest.document_id, latest, 'withdrawn', null, now);
  }

  private findDocument(db: Executor, orgId: string, docId: string, options: { lock?: boolean } = {}) {
    return findDocument(db, this.database.dialect, orgId, docId, options);
  }
}
