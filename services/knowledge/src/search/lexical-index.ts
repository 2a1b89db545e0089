/**
 * @module search/lexical-index
 * Full-text search over chunks: SQLite FTS5 (porter stemming, BM25 with the
 * title and headings weighted above the text) or PostgreSQL full text
 * (`english` configuration, weighted tsvector, `ts_rank_cd`). A question is
 * matched as an OR of its content words, so a paraphrase still finds passages
 * that share some of its words; ranking rewards the passages that share more.
 *
 * On SQLite the cost is BM25 over every matching chunk. Two things keep it small:
 * - the organization is matched inside FTS5 (`org : "…" AND …`) when it holds
 *   less than a quarter of the index; otherwise the words are matched alone and
 *   the rows come out in rank order, filtered by organization, until `limit`
 *   pass (matching the organization would cost BM25 a pass over its whole
 *   posting list);
 * - once the index holds `pruneFrom` chunks, words found in more than
 *   `commonShare` of them leave such an organization's query (the rarest stays
 *   when all are common). Their BM25 weight is low (IDF below ln 9 ≈ 2.2 at 10%)
 *   and they would make nearly every chunk a match. Document frequencies are
 *   cached per index generation.
 */

import type { DialectName } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import { GenerationCache } from './generation-cache.js';
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

export interface LexicalTuning {
  /** Chunks in the index from which common words are left out of a large organization's query. */
  pruneFrom: number;
  /** A word in more than this share of the chunks is common. */
  commonShare: number;
}

export const lexicalDefaults: LexicalTuning = { pruneFrom: 20_000, commonShare: 0.1 };

const MAX_QUERY_TERMS = 32;
/** The columns a question is matched against (not `org`), and their BM25 weights (org, title, headings, text). */
const TEXT_COLUMNS = '{title heading_path text}';
const RANKING = 'bm25(0.0, 3.0, 2.0, 1.0)';

const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
const anyOf = (words: string[]) => `${TEXT_COLUMNS} : (${words.map(phrase).join(' OR ')})`;

export class LexicalIndex {
  private readonly tuning: LexicalTuning;
  private readonly counts = new GenerationCache<number>();

  constructor(
    private readonly dialect: DialectName,
    tuning: Partial<LexicalTuning> = {},
  ) {
    this.tuning = { ...lexicalDefaults, ...tuning };
  }

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

  /** `generation` is the index generation the cached figures belong to. */
  async search(
    db: Executor,
    orgId: string,
    query: string,
    limit: number,
    generation: string,
  ): Promise<LexicalHit[]> {
    const words = [...new Set(terms(query))].slice(0, MAX_QUERY_TERMS);
    if (words.length === 0) return [];
    if (this.dialect === 'sqlite') return this.searchFts(db, orgId, words, limit, generation);
    const tsquery = words.join(' | ');
    const result =
      await sql<LexicalHit>`select c.id as "chunkId", ts_rank_cd(c.search_vector, q) as rank from chunks c, to_tsquery('english', ${tsquery}) q where c.org_id = ${orgId} and c.search_vector @@ q order by rank desc limit ${limit}`.execute(
        db,
      );
    return result.rows.map((r) => ({ chunkId: Number(r.chunkId), rank: Number(r.rank) }));
  }

  private async searchFts(
    db: Executor,
    orgId: string,
    words: string[],
    limit: number,
    generation: string,
  ): Promise<LexicalHit[]> {
    const total = await this.count(db, generation, '');
    const own = await this.count(db, generation, orgId);
    let result: { rows: LexicalHit[] };
    if (own * 4 >= total) {
      const kept = total >= this.tuning.pruneFrom ? await this.uncommon(db, words, total, generation) : words;
      result =
        await sql<LexicalHit>`select rowid as "chunkId", rank from chunks_fts where chunks_fts match ${anyOf(kept)} and rank match ${RANKING} and org = ${orgId} order by rank limit ${limit}`.execute(
          db,
        );
    } else {
      result =
        await sql<LexicalHit>`select rowid as "chunkId", rank from chunks_fts where chunks_fts match ${`org : ${phrase(orgId)} AND ${anyOf(words)}`} and rank match ${RANKING} order by rank limit ${limit}`.execute(
          db,
        );
    }
    return result.rows.map((r) => ({ chunkId: Number(r.chunkId), rank: -r.rank }));
  }

  /** The words found in at most `commonShare` of the chunks, or else the rarest one. */
  private async uncommon(db: Executor, words: string[], total: number, generation: string) {
    const counted = [];
    for (const word of words) counted.push({ word, chunks: await this.count(db, generation, '', word) });
    const kept = counted.filter((c) => c.chunks <= this.tuning.commonShare * total);
    if (kept.length > 0) return kept.map((c) => c.word);
    return [counted.reduce((a, b) => (b.chunks < a.chunks ? b : a)).word];
  }

  /** Chunks of the organization (all when `orgId` is empty), containing `word` when given. */
  private count(db: Executor, generation: string, orgId: string, word?: string): Promise<number> {
    return this.counts.get(generation, `${orgId}\n${word ?? ''}`, async () => {
      if (word !== undefined) {
        const result = await sql<{
          n: number;
        }>`select count(*) as n from chunks_fts where chunks_fts match ${anyOf([word])}`.execute(db);
        return Number(result.rows[0]!.n);
      }
      let query = db.selectFrom('chunks').select((eb) => eb.fn.countAll().as('n'));
      if (orgId) query = query.where('org_id', '=', orgId);
      return Number((await query.executeTakeFirstOrThrow()).n);
    });
  }
}
