/**
 * @module evaluation/bm25-baseline
 * The reference a search is compared against: plain BM25 over the same text, one
 * row per document, in an in-memory SQLite FTS5 table with the tokenizer the
 * knowledge index uses, ranked by `bm25()` with its default weights. The query is
 * the OR of the question's distinct words, so no word is required.
 */
import SQLite from 'better-sqlite3';

export class Bm25Baseline {
  private readonly connection = new SQLite(':memory:');
  /** Corpus ids by FTS5 rowid (rowid n is ids[n - 1]). */
  private readonly ids: string[] = [];
  private readonly insert;
  private readonly query;

  constructor() {
    this.connection.exec(
      `create virtual table documents using fts5(title, text, tokenize = 'porter unicode61 remove_diacritics 2')`,
    );
    this.insert = this.connection.prepare('insert into documents (rowid, title, text) values (?, ?, ?)');
    this.query = this.connection
      .prepare<[string, number], { rowid: number }>(
        'select rowid from documents where documents match ? order by bm25(documents) limit ?',
      )
      .raw(false);
  }

  /** Adds documents in one transaction. */
  add(documents: readonly { id: string; title: string; text: string }[]): void {
    this.connection.transaction(() => {
      for (const doc of documents) {
        this.ids.push(doc.id);
        this.insert.run(this.ids.length, doc.title, doc.text);
      }
    })();
  }

  /** The corpus ids of the best `limit` documents, best first. */
  search(question: string, limit: number): string[] {
    const expression = matchExpression(question);
    if (!expression) return [];
    return this.query.all(expression, limit).map((row) => this.ids[row.rowid - 1]!);
  }

  close(): void {
    this.connection.close();
  }
}

/** `"word1" OR "word2" …` over the distinct words of the lowercased question; empty when it has none. */
export function matchExpression(question: string): string {
  const words = new Set(question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  return [...words].map((w) => `"${w}"`).join(' OR ');
}
