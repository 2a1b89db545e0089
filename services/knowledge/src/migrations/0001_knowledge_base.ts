/**
 * Tokens, documents with their revisions and review trail, and the chunks that
 * search serves with their lexical index. The vector table is created by the
 * vector index itself, once it knows the embedder's dimension.
 */
import type { ServiceMigration } from '@xv/platform';
import { sql } from 'kysely';

export const knowledgeBase: ServiceMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('access_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull())
      .addColumn('owner_email', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('access_tokens_owner').on('access_tokens').columns(['owner_id']).execute();

    await db.schema
      .createTable('documents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('latest_revision_id', 'text', (c) => c.notNull())
      .addColumn('live_revision_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('documents_org_path', ['org_id', 'path'])
      .execute();

    await db.schema
      .createTable('revisions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('maker_id', 'text', (c) => c.notNull())
      .addColumn('maker_email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('revisions_document_number', ['document_id', 'number'])
      .execute();
    await db.schema.createIndex('revisions_org_state').on('revisions').columns(['org_id', 'state']).execute();

    await db.schema
      .createTable('review_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('revision_id', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text', (c) => c.notNull())
      .addColumn('actor_email', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('review_events_document')
      .on('review_events')
      .columns(['document_id', 'at'])
      .execute();

    await db.schema
      .createTable('chunks')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('document_id', 'text', (c) => c.notNull())
      .addColumn('revision_id', 'text', (c) => c.notNull())
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('heading_path', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('embedding', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('chunks_org').on('chunks').columns(['org_id']).execute();
    await db.schema.createIndex('chunks_revision').on('chunks').columns(['revision_id']).execute();

    if (dialect === 'sqlite') {
      // rowid = chunks.id; porter stemming so "invoices" finds "invoice"; the organization is
      // indexed too, so a query is narrowed to one organization inside FTS5.
      await sql`create virtual table chunks_fts using fts5(org, title, heading_path, text, tokenize = 'porter unicode61 remove_diacritics 2')`.execute(
        db,
      );
    } else {
      await sql`alter table chunks add column search_vector tsvector`.execute(db);
      await sql`create index chunks_search on chunks using gin (search_vector)`.execute(db);
    }

    await db.schema
      .createTable('index_state')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
