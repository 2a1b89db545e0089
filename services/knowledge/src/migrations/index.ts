/**
 * @module migrations
 * The knowledge service's schema, in order. Never edit a migration that has shipped; add one.
 */
import type { Migrations } from '@xv/platform';
import { knowledgeBase } from './0001_knowledge_base.js';
import { publicDocuments } from './0002_public_documents.js';
import { reviewRevisions } from './0003_review_revisions.js';
import { chunksByOrganization } from './0004_chunks_by_organization.js';
import { chunkChanges } from './0005_chunk_changes.js';

export const migrations: Migrations = {
  '0001_knowledge_base': knowledgeBase,
  '0002_public_documents': publicDocuments,
  '0003_review_revisions': reviewRevisions,
  '0004_chunks_by_organization': chunksByOrganization,
  '0005_chunk_changes': chunkChanges,
};
