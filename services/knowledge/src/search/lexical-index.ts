/**
 * @module search/lexical-index
 * Full-text candidates for a question, and the organization's statistics the
 * ranking needs (search/ranking.ts scores the candidates). What is indexed is the
 * folded text (search/analysis.ts: no diacritics, đ → d), in SQLite FTS5
 * (`porter unicode61 remove_diacritics 2`) or a PostgreSQL `english` tsvector
 * weighted A/B/D. A question is matched as an OR of its content words, so a
 * paraphrase still finds passages that share some of its words.
 *
 * Candidates come out in the database's own rank order (FTS5 BM25 with the title
 * and headings weighted, or `ts_rank_cd`), `limit` of them; the ranking then
 * scores every candidate with all the question's words against the
 * organization's own statistics. Two things keep the candidate query small (the
 * second on PostgreSQL too, where `ts_rank_cd` reads every matching row):
 * - the organization is matched inside FTS5 (`org : "…" AND …`) when it holds
 *   less than a quarter of the index; otherwise the words are matched alone and
 *   the rows come out in rank order, filtered by organization, until `limit`
 *   pass (matching the organization would cost BM25 a pass over its whole
 *   posting list);
 * - once the index holds `pruneFrom` chunks, words found in more than
 *   `commonShare` of the organization's chunks leave such an organization's
 *   candidate query (the rarest stays when all are common). They would make
 *   nearly every chunk a candidate; the ranking still counts them.
 * Counts come from search/corpus-statistics.ts, kept current from the change log.
 */

import type { DialectName } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import { fold } from './analysis.js';
import type { IndexVersion } from './change-log.js';
import { CorpusStatistics } from './corpus-statistics.js';
import type { RankingTuning } from './ranking.js';

type Executor = Kysely<KnowledgeTables>;

export interface LexicalRow {
  chunkId: number;
  orgId: string;
  title: string;
  headingPath: string;
  text: string;
}

export interface LexicalTuning {
  /** Chunks in the index from which common words are left out of a large organization's candidate query. */
  pruneFrom: number;
  /** A word in more than this share of the organization's chunks is common. */
  commonShare: number;
  /** When common words left the candidate query, this many times more candidates are read, for the ranking to re-order with every word. */
  prunedDepthFactor: number;
}

export const lexicalDefaults: LexicalTuning = { pruneFrom: 20_000, commonShare: 0.1, prunedDepthFactor: 3 };

/**
 * What the index holds is folded by search/analysis.ts; when that changes, the
 * version moves and the entries are rebuilt from the chunks at start-up.
 */
export const LEXICAL_VERSION = 'folded-v2';

const MAX_QUERY_TERMS = 32;
/** The columns a question is matched against (not `org`), and their BM25 weights (org, title, headings, text). */
const TEXT_COLUMNS = '{title heading_path text}';
/** FTS5's order of the candidates: BM25 with the ranking's field weights (search/ranking.ts). */
const RANKING = 'bm25(0.0, 2.0, 1.5, 1.0)';

const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
const anyOf = (words: string[]) => `${TEXT_COLUMNS} : (${words.map(phrase).join(' OR ')})`;

export class LexicalIndex {
  private readonly tuning: LexicalTuning;
  readonly counts: CorpusStatistics;

  constructor(
    private readonly dialect: DialectName,
    tuning: Partial<LexicalTuning> = {},
  ) {
    this.tuning = { ...lexicalDefaults, ...tuning };
    this.counts = new CorpusStatistics(dialect);
  }

  async add(db: Executor, rows: LexicalRow[]) {
    for (const row of rows) {
      const [title, heading, text] = [fold(row.title), fold(row.headingPath), fold(row.text)];
      if (this.dialect === 'sqlite') {
        await sql`insert into chunks_fts (rowid, org, title, heading_path, text) values (${row.chunkId}, ${row.orgId}, ${title}, ${heading}, ${text})`.execute(
          db,
        );
      } else {
        await sql`update chunks set search_vector = setweight(to_tsvector('english', ${title}), 'A') || setweight(to_tsvector('english', ${heading}), 'B') || to_tsvector('english', ${text}) where id = ${row.chunkId}`.execute(
          db,
        );
      }
    }
  }

  async remove(db: Executor, chunkIds: number[]) {
    if (chunkIds.length === 0 || this.dialect !== 'sqlite') return; // PostgreSQL's vector lives in the chunk row
    await sql`delete from chunks_fts where rowid in (${sql.join(chunkIds)})`.execute(db);
  }

  /** Writes every chunk's entry again (after the analysis changed), inside the caller's transaction. */
  async rebuild(db: Executor) {
    if (this.dialect === 'sqlite') await sql`delete from chunks_fts`.execute(db);
    for (let after = 0; ; ) {
      const rows = await db
        .selectFrom('chunks as c')
        .innerJoin('revisions as r', 'r.id', 'c.revision_id')
        .select(['c.id', 'c.org_id', 'r.title', 'c.heading_path', 'c.text'])
        .where('c.id', '>', after)
        .orderBy('c.id')
        .limit(500)
        .execute();
      if (rows.length === 0) return;
      await this.add(
        db,
        rows.map((r) => ({
          chunkId: Number(r.id),
          orgId: r.org_id,
          title: r.title,
          headingPath: r.heading_path,
          text: r.text,
        })),
      );
      after = Number(rows[rows.length - 1]!.id);
    }
  }

  /**
   * The organization's chunks matching any of the folded `words`, best first by the
   * database's own rank, at most `limit`. `version` is the index version the
   * counts are taken at.
   */
  async candidates(
    db: Executor,
    orgId: string,
    words: string[],
    limit: number,
    version: IndexVersion,
  ): Promise<number[]> {
    const unique = [...new Set(words)].slice(0, MAX_QUERY_TERMS);
    if (unique.length === 0) return [];
    const total = await this.counts.passages(db, '', version);
    const own = await this.counts.passages(db, orgId, version);
    const large = own * 4 >= total;
    const kept =
      large && total >= this.tuning.pruneFrom ? await this.uncommon(db, orgId, unique, own, version) : unique;
    if (this.dialect !== 'sqlite') {
      // ts_rank_cd reads every matching row: common words would make that most of the organization.
      if (kept.length < unique.length) limit *= this.tuning.prunedDepthFactor;
      const result = await sql<{
        id: number;
      }>`select c.id from chunks c, to_tsquery('english', ${kept.join(' | ')}) q where c.org_id = ${orgId} and c.search_vector @@ q order by ts_rank_cd(c.search_vector, q) desc limit ${limit}`.execute(
        db,
      );
      return result.rows.map((r) => Number(r.id));
    }
    let match = `org : ${phrase(orgId)} AND ${anyOf(unique)}`;
    let organization = sql``;
    if (large) {
      match = anyOf(kept);
      organization = sql`and org = ${orgId}`;
      // With common words left out, more candidates: the ranking re-orders them with every word.
      if (kept.length < unique.length) limit *= this.tuning.prunedDepthFactor;
    }
    const result = await sql<{
      id: number;
    }>`select rowid as id from chunks_fts where chunks_fts match ${match} and rank match ${RANKING} ${organization} order by rank limit ${limit}`.execute(
      db,
    );
    return result.rows.map((r) => Number(r.id));
  }

  /** How many of the organization's chunks there are, and how many hold each folded word. */
  async statistics(db: Executor, orgId: string, words: string[], version: IndexVersion) {
    const passages = await this.counts.passages(db, orgId, version);
    const frequency = new Map<string, number>();
    for (const word of new Set(words))
      frequency.set(word, await this.counts.frequency(db, orgId, word, version));
    return { passages, frequency };
  }

  /** The organization's average passage length in characters, weighted as the ranking weighs fields. */
  async averageLength(db: Executor, orgId: string, version: IndexVersion, tuning: RankingTuning) {
    const sums = await this.counts.lengths(db, orgId, version);
    const average = (sum: number) => (sums.passages > 0 ? sum / sums.passages : 0);
    const weighted =
      tuning.title * average(sums.title) + tuning.heading * average(sums.heading) + average(sums.text);
    return Math.max(weighted, 1);
  }

  /** The words found in at most `commonShare` of the organization's chunks, or else the rarest one. */
  private async uncommon(db: Executor, orgId: string, words: string[], own: number, version: IndexVersion) {
    const counted = [];
    for (const word of words)
      counted.push({ word, chunks: await this.counts.frequency(db, orgId, word, version) });
    const kept = counted.filter((c) => c.chunks <= this.tuning.commonShare * own);
    if (kept.length > 0) return kept.map((c) => c.word);
    return [counted.reduce((a, b) => (b.chunks < a.chunks ? b : a)).word];
  }
}
