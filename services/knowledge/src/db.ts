/**
 * @module db
 * The knowledge service's tables, as Kysely sees them. Times are Unix
 * milliseconds; JSON lists are text.
 */
import type { Database } from '@xv/platform';
import type { Generated } from 'kysely';

export interface AccessTokenTable {
  id: string;
  org_id: string;
  owner_id: string;
  owner_email: string;
  name: string;
  token_hash: string;
  /** JSON array of scopes. */
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface DocumentTable {
  id: string;
  org_id: string;
  path: string;
  title: string;
  /** The newest revision: what the document's `state` reports. */
  latest_revision_id: string;
  /** The approved revision that search serves, if any. */
  live_revision_id: string | null;
  /** 1: the organization's public assistant may serve the approved revision to anyone (off by default). */
  public: Generated<number>;
  /**
   * The hash of the revision that opened the current review round (its first submission
   * since the last decision): what a decision naming no revision decides on. Null outside review.
   */
  submitted_hash: string | null;
  created_at: number;
  updated_at: number;
}

export interface RevisionTable {
  id: string;
  org_id: string;
  document_id: string;
  number: number;
  /** `content` for a new text, `retirement` for a request to take the document out of the knowledge base. */
  kind: 'content' | 'retirement';
  state: string;
  title: string;
  content: string;
  hash: string;
  maker_id: string;
  maker_email: string;
  created_at: number;
  updated_at: number;
}

export interface ReviewEventTable {
  id: string;
  org_id: string;
  document_id: string;
  revision_id: string;
  action: string;
  actor_id: string;
  actor_email: string;
  note: string | null;
  /** The content hash of the revision as this step saw it (null for pushes made before it was recorded). */
  revision_hash: string | null;
  at: number;
}

export interface ChunkTable {
  id: Generated<number>;
  org_id: string;
  document_id: string;
  revision_id: string;
  ordinal: number;
  heading_path: string;
  text: string;
  /** The embedding as little-endian float32 bytes: the portable copy every vector backend can rebuild from. */
  embedding: Uint8Array;
}

/** One chunk entering (`added` 1) or leaving (0) search, numbered in commit order (search/change-log.ts). */
export interface ChunkChangeTable {
  seq: Generated<number>;
  org_id: string;
  chunk_id: number;
  added: number;
  title_length: number;
  heading_length: number;
  text_length: number;
}

export interface IndexStateTable {
  key: string;
  value: string;
}

export interface KnowledgeTables {
  access_tokens: AccessTokenTable;
  documents: DocumentTable;
  revisions: RevisionTable;
  review_events: ReviewEventTable;
  chunks: ChunkTable;
  chunk_changes: ChunkChangeTable;
  index_state: IndexStateTable;
}

export type KnowledgeDatabase = Database<KnowledgeTables>;
