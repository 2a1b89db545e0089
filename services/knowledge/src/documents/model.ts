/**
 * @module documents/model
 * What a document looks like from outside: its states and the shapes the review
 * workflow and the read models answer with.
 */
import type { Selectable } from 'kysely';
import type { RevisionTable } from '../db.js';

export const DOCUMENT_STATES = ['draft', 'under_review', 'approved', 'rejected', 'retired'] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];
export type Decision = 'approve' | 'reject';

export type Revision = Selectable<RevisionTable>;

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

/** What a document's newest revision makes it, seen from outside. */
export function documentState(revision: Pick<Revision, 'kind' | 'state'>): DocumentState {
  if (revision.kind === 'retirement' && revision.state === 'approved') return 'retired';
  if (revision.state === 'withdrawn' || revision.state === 'archived') return 'draft'; // never the newest
  return revision.state as DocumentState;
}

export const iso = (ms: number) => new Date(ms).toISOString();
