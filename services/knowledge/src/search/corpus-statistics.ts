/**
 * @module search/corpus-statistics
 * The figures the lexical ranking needs of an organization (how many chunks, their
 * summed lengths, how many hold a word) and the index's total, counted once and
 * then kept current from the change log (search/change-log.ts): after an approval
 * a figure is brought forward by the rows written since it was counted, which the
 * log keeps with their lengths and lexical entries. A figure counted under another
 * epoch, or older than the log's floor, is counted again.
 */
import type { DialectName } from '@xv/platform';
import { type Kysely, sql } from 'kysely';
import type { KnowledgeTables } from '../db.js';
import type { IndexVersion } from './change-log.js';

type Executor = Kysely<KnowledgeTables>;

interface Counted {
  values: number[];
  epoch: string;
  /** The last log row the values include. */
  at: number;
}

/** Figures kept at most (past it, the cache starts over). */
const LIMIT = 10_000;

const phrase = (text: string) => `"${text.replace(/"/g, '""')}"`;
/** The columns a word is matched against (not `org`), as lexical-index.ts matches them. */
export const matchWord = (word: string) => `{title heading_path text} : (${phrase(word)})`;
/** +1 for a row that added a chunk, −1 for one that removed it. */
const SIGN = sql`(2 * added - 1)`;
const LAST_SEQ = sql`(select coalesce(max(seq), 0) from chunk_changes)`;

export class CorpusStatistics {
  private readonly figures = new Map<string, Counted>();
  /** Words PostgreSQL's `english` configuration drops: they count as in every chunk. */
  private readonly stopWords = new Set<string>();

  constructor(private readonly dialect: DialectName) {}

  /** How many chunks the organization holds (all organizations when `orgId` is empty). */
  async passages(db: Executor, orgId: string, version: IndexVersion): Promise<number> {
    return (await this.totals(db, orgId, version))[0]!;
  }

  /** The organization's summed lengths, in characters, of titles, heading paths and texts. */
  async lengths(db: Executor, orgId: string, version: IndexVersion) {
    const [passages, title, heading, text] = await this.totals(db, orgId, version);
    return { passages: passages!, title: title!, heading: heading!, text: text! };
  }

  /** How many of the organization's chunks hold the folded `word`. */
  async frequency(db: Executor, orgId: string, word: string, version: IndexVersion): Promise<number> {
    if (this.stopWords.has(word)) return this.passages(db, orgId, version);
    const [count] = await this.current(
      `${orgId}\nword\n${word}`,
      version,
      async () => {
        if (this.dialect === 'postgres') {
          const { rows } = await sql<{ at: number; nodes: number; n: number }>`select ${LAST_SEQ} as at,
          numnode(q) as nodes, (select count(*) from chunks where org_id = ${orgId} and search_vector @@ q) as n
          from to_tsquery('english', ${word}) q`.execute(db);
          if (Number(rows[0]!.nodes) === 0) this.stopWords.add(word);
          return { at: Number(rows[0]!.at), values: [Number(rows[0]!.n)] };
        }
        // An organization holding the whole index needs no organization filter (which costs a posting-list merge).
        const whole = (await this.passages(db, orgId, version)) === (await this.passages(db, '', version));
        const match = whole ? matchWord(word) : `org : ${phrase(orgId)} AND ${matchWord(word)}`;
        const { rows } = await sql<{ at: number; n: number }>`select ${LAST_SEQ} as at, count(*) as n
        from chunks_fts where chunks_fts match ${match}`.execute(db);
        return { at: Number(rows[0]!.at), values: [Number(rows[0]!.n)] };
      },
      async (from, to) => {
        const { rows } =
          this.dialect === 'postgres'
            ? await sql<{ n: number }>`select coalesce(sum(${SIGN}), 0) as n from chunk_changes
              where org_id = ${orgId} and seq > ${from} and seq <= ${to} and search_vector @@ to_tsquery('english', ${word})`.execute(
                db,
              )
            : await sql<{ n: number }>`select coalesce(sum(${SIGN}), 0) as n from chunk_changes_fts f
              join chunk_changes on seq = f.rowid
              where chunk_changes_fts match ${matchWord(word)} and f.rowid > ${from} and f.rowid <= ${to} and org_id = ${orgId}`.execute(
                db,
              );
        return [Number(rows[0]!.n)];
      },
    );
    if (this.stopWords.has(word)) return this.passages(db, orgId, version);
    return count!;
  }

  /** Chunks, and summed title, heading and text lengths (titles of the revisions the chunks belong to). */
  private totals(db: Executor, orgId: string, version: IndexVersion): Promise<number[]> {
    const organization = orgId ? sql`and org_id = ${orgId}` : sql``;
    return this.current(
      `${orgId}\ntotals`,
      version,
      async () => {
        if (!orgId) {
          // The index's total: only its chunk count is asked for.
          const { rows } = await sql<{
            at: number;
            n: number;
          }>`select ${LAST_SEQ} as at, count(*) as n from chunks`.execute(db);
          return { at: Number(rows[0]!.at), values: [Number(rows[0]!.n), 0, 0, 0] };
        }
        const { rows } = await sql<
          Record<'at' | 'n' | 'title' | 'heading' | 'text', number>
        >`select ${LAST_SEQ} as at,
        (select count(*) from chunks where org_id = ${orgId}) as n,
        coalesce(sum(length(r.title)), 0) as title, coalesce(sum(length(c.heading_path)), 0) as heading,
        coalesce(sum(length(c.text)), 0) as text
        from chunks c join revisions r on r.id = c.revision_id where c.org_id = ${orgId}`.execute(db);
        const row = rows[0]!;
        return { at: Number(row.at), values: [row.n, row.title, row.heading, row.text].map(Number) };
      },
      async (from, to) => {
        const { rows } = await sql<Record<'n' | 'title' | 'heading' | 'text', number>>`select
        coalesce(sum(${SIGN}), 0) as n, coalesce(sum(${SIGN} * title_length), 0) as title,
        coalesce(sum(${SIGN} * heading_length), 0) as heading, coalesce(sum(${SIGN} * text_length), 0) as text
        from chunk_changes where seq > ${from} and seq <= ${to} ${organization}`.execute(db);
        const row = rows[0]!;
        return [row.n, row.title, row.heading, row.text].map(Number);
      },
    );
  }

  /**
   * The figure as of `version`: counted afresh when it is missing, of another epoch
   * or older than the log's floor; otherwise brought forward by the log rows after it.
   */
  private async current(
    key: string,
    version: IndexVersion,
    count: () => Promise<{ at: number; values: number[] }>,
    change: (from: number, to: number) => Promise<number[]>,
  ): Promise<number[]> {
    const known = this.figures.get(key);
    if (!known || known.epoch !== version.epoch || known.at < version.floor) {
      const { at, values } = await count();
      this.keep(key, { values, at, epoch: version.epoch });
      return values;
    }
    if (known.at >= version.changes) return known.values;
    const delta = await change(known.at, version.changes);
    const values = known.values.map((v, i) => v + delta[i]!);
    // A concurrent search may have moved the figure already; either result is exact for its version.
    if (this.figures.get(key) === known) this.keep(key, { values, at: version.changes, epoch: known.epoch });
    return values;
  }

  private keep(key: string, counted: Counted) {
    if (this.figures.size >= LIMIT && !this.figures.has(key)) this.figures.clear();
    this.figures.set(key, counted);
  }
}
