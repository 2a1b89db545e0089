/**
 * @module documents/read-model
 * What the organization's documents look like, read-only: the reviewer's list and
 * detail (with history), the sync client's manifest, the approved documents MCP
 * serves, and the text of an earlier revision (what a reviewer saw).
 */
import type { KnowledgeDatabase } from '../db.js';
import { parseHash } from './hash.js';
import {
  type DocumentDetail,
  type DocumentState,
  type DocumentSummary,
  documentState,
  iso,
} from './model.js';
import { findDocument, findRevision } from './records.js';

export class DocumentReader {
  constructor(private readonly database: KnowledgeDatabase) {}

  private get db() {
    return this.database.kysely;
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
    const doc = await findDocument(this.db, this.database.dialect, orgId, docId);
    const latest = await findRevision(this.db, doc.latest_revision_id);
    const live = doc.live_revision_id ? await findRevision(this.db, doc.live_revision_id) : undefined;
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

  /** Paths and hashes of the organization's documents, for the sync client to compare its vault with. */
  async manifest(orgId: string) {
    const rows = await this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.latest_revision_id')
      .select(['d.id', 'd.path', 'r.id as revisionId', 'r.hash', 'r.state', 'r.kind'])
      .where('d.org_id', '=', orgId)
      .orderBy('d.path')
      .execute();
    const notes = await this.rejectionNotes(
      orgId,
      rows.filter((r) => r.state === 'rejected').map((r) => r.revisionId),
    );
    return rows.map((r) => ({
      docId: r.id,
      path: r.path,
      hash: r.hash,
      state: documentState(r),
      kind: r.kind,
      ...(notes.has(r.revisionId) ? { note: notes.get(r.revisionId) } : {}),
    }));
  }

  /**
   * The documents whose newest revision `userId` made, newest first: what an
   * author sees of their own work, with the reviewer's note on a rejected one.
   */
  async madeBy(
    orgId: string,
    userId: string,
    options: { limit: number; offset: number },
  ): Promise<(DocumentSummary & { note: string | null })[]> {
    const rows = await this.db
      .selectFrom('documents as d')
      .innerJoin('revisions as r', 'r.id', 'd.latest_revision_id')
      .select(['d.id', 'd.path', 'd.updated_at', 'r.id as revisionId'])
      .select(['r.title', 'r.state', 'r.kind', 'r.hash', 'r.number', 'r.maker_email'])
      .where('d.org_id', '=', orgId)
      .where('r.maker_id', '=', userId)
      .orderBy('d.updated_at', 'desc')
      .orderBy('d.id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const notes = await this.rejectionNotes(
      orgId,
      rows.filter((r) => r.state === 'rejected').map((r) => r.revisionId),
    );
    return rows.map((r) => ({
      docId: r.id,
      path: r.path,
      title: r.title,
      state: documentState(r),
      hash: r.hash,
      revision: r.number,
      maker: r.maker_email,
      updatedAt: iso(r.updated_at),
      note: notes.get(r.revisionId) ?? null,
    }));
  }

  /** The reviewer's note on each rejected revision that has one, by revision id. */
  private async rejectionNotes(orgId: string, revisionIds: string[]): Promise<Map<string, string>> {
    const notes = new Map<string, string>();
    if (revisionIds.length === 0) return notes;
    const rows = await this.db
      .selectFrom('review_events')
      .select(['revision_id', 'note'])
      .where('org_id', '=', orgId)
      .where('action', '=', 'reject')
      .where('revision_id', 'in', revisionIds)
      .orderBy('at')
      .execute();
    for (const row of rows) if (row.note) notes.set(row.revision_id, row.note);
    return notes;
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
}
