/**
 * @module search/lexical-index
 * Full-text search over chunks: SQLite FTS5 (porter stemming, BM25 with the
 * title and headings weighted above the text) or PostgreSQL full text
 * (`english` configuration, weighted tsvector, `ts_rank_cd`). A question is
 * matched as an OR of its content words, so a paraphrase still finds passages
 * that share some of its words; ranking rewards the passages that share more.
 */

import type { DialectName } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import { terms } from './text.js';

type Executor = Kysely<KnowledgeTables>;

export interface LexicalRow {
  chunkId: number;
  orgId: string;
  title: string;
  headingPath: string;
  text: string;
}

export interface LexicalHit {
  chunkId: number;
  rank: number;
}

const MAX_QUERY_TERMS = 32;

export class LexicalIndex {
  constructor(private readonly dialect: DialectName) {}

  async add(db: Executor, rows: LexicalRow[]) {
    for (const row of rows) {
      if (this.dialect === 'sqlite') {
        await sql`insert into chunks_fts (rowid, org, title, heading_path, text) values (${row.chunkId}, ${row.orgId}, ${row.title}, ${row.headingPath}, ${row.text})`.execute(
          db,
        );
      } else {
        await sql`update chunks set search_vector = setweight(to_tsvector('english', ${row.title}), 'A') || setweight(to_tsvector('english', ${row.headingPath}), 'B') || to_tsvector('english', ${row.text}) where id = ${row.chunkId}`.execute(
          db,
        );
      }
    }
  }

  async remove(db: Executor, chunkIds: number[]) {
    if (chunkIds.length === 0 || this.dialect !== 'sqlite') return; // PostgreSQL's vector lives in the chunk row
    await sql`delete from chunks_fts where rowid in (${sql.join(chunkIds)})`.execute(db);
  }

  async search(db: Executor, orgId: string, query: string, limit: number): Promise<LexicalHit[]> {
    const words = [...new Set(terms(query))].slice(0, MAX_QUERY_TERMS);
    if (words.length === 0) return [];
    if (this.dialect === 'sqlite') {
      // The organization is a column of the full-text index itself: FTS5 intersects it with the words,
      // and ranking never has to look outside the index.
      const match = `org : "${orgId.replace(/"/g, '""')}" AND (${words.map((w) => `"${w}"`).join(' OR ')})`;
      const result =
        await sql<LexicalHit>`select rowid as "chunkId", bm25(chunks_fts, 0.0, 3.0, 2.0, 1.0) as rank from chunks_fts where chunks_fts match ${match} order by rank limit ${limit}`.execute(
          db,
        );
      return result.rows.map((r) => ({ chunkId: Number(r.chunkId), rank: -r.rank }));
    }
    const tsquery = words.join(' | ');
    const result =
      await sql<LexicalHit>`select c.id as "chunkId", ts_rank_cd(c.search_vector, q) as rank from chunks c, to_tsquery('english', ${tsquery}) q where c.org_id = ${orgId} and c.search_vector @@ q order by rank desc limit ${limit}`.execute(
        db,
      );
    return result.rows.map((r) => ({ chunkId: Number(r.chunkId), rank: Number(r.rank) }));
  }
}
