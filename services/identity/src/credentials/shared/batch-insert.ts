/**
 * @module credentials/shared/batch-insert
 * Group commit: inserts asked for in the same moment go to the database as one
 * multi-row `INSERT … ON CONFLICT DO NOTHING RETURNING <key>`, so a burst of
 * issuances or verifications pays for one write instead of one each. Every caller
 * still learns whether its own row went in (false: a row with that unique key
 * was already there), and nothing is answered before its row is stored.
 */

interface Pending<Row> {
  row: Row;
  resolve: (inserted: boolean) => void;
  reject: (error: unknown) => void;
}

export class InsertBatcher<Row> {
  private pending: Pending<Row>[] = [];

  constructor(
    /** Inserts the rows, skipping conflicts, and returns the keys of those inserted. */
    private readonly insertAll: (rows: Row[]) => Promise<Iterable<string>>,
    private readonly keyOf: (row: Row) => string,
    private readonly maxBatch = 200,
  ) {}

  /** Resolves true once the row is stored, false when it conflicted with an existing one. */
  insert(row: Row): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush() {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.maxBatch);
      try {
        const inserted = new Set(await this.insertAll(batch.map((p) => p.row)));
        for (const p of batch) p.resolve(inserted.has(this.keyOf(p.row)));
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
  }
}
