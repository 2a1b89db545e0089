/**
 * @module credentials/shared/batch-insert
 * Group commit of inserts (`GroupCommit` of `@xv/platform`): inserts asked for in
 * the same moment go to the database as one multi-row
 * `INSERT … ON CONFLICT DO NOTHING RETURNING <key>`, so a burst of issuances or
 * verifications pays for one write instead of one each. Every caller still learns
 * whether its own row went in (false: a row with that unique key was already
 * there), and nothing is answered before its row is stored.
 */
import { GroupCommit } from '@xv/platform';

export class InsertBatcher<Row> {
  private readonly commit: GroupCommit<Row, boolean>;

  constructor(
    /** Inserts the rows, skipping conflicts, and returns the keys of those inserted. */
    insertAll: (rows: Row[]) => Promise<Iterable<string>>,
    keyOf: (row: Row) => string,
    options = { maxBatch: 200, maxInFlight: 4 },
  ) {
    this.commit = new GroupCommit(async (rows) => {
      const inserted = new Set(await insertAll([...rows]));
      return rows.map((row) => inserted.has(keyOf(row)));
    }, options);
  }

  /** Resolves true once the row is stored, false when it conflicted with an existing one. */
  insert(row: Row): Promise<boolean> {
    return this.commit.write(row);
  }
}
