/**
 * Binds each idempotency key to a hash of its run's input (`input_hash`, see
 * `workflows/input-hash.ts`). Runs stored before have their hash computed from the
 * input they stored; a row whose input cannot be read keeps no hash, and a key
 * without a hash matches no input (its reuse answers `idempotency_key_reused`).
 */
import type { ServiceMigration } from '@xv/platform';
import type { Kysely } from 'kysely';
import { inputHash } from '../workflows/input-hash.js';

const BATCH = 500;

export const idempotencyInputHash: ServiceMigration = {
  // A migration sees the tables as they were when it was written, not as today's types describe them.
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own advice for migrations.
  async up(db: Kysely<any>) {
    await db.schema.alterTable('wf_runs').addColumn('input_hash', 'text').execute();
    let after = '';
    for (;;) {
      const rows = await db
        .selectFrom('wf_runs')
        .select(['run_id', 'input'])
        .where('idem_key', 'is not', null)
        .where('run_id', '>', after)
        .orderBy('run_id')
        .limit(BATCH)
        .execute();
      for (const row of rows) {
        const hash = hashOfStoredInput(row.input);
        if (hash)
          await db
            .updateTable('wf_runs')
            .set({ input_hash: hash })
            .where('run_id', '=', row.run_id)
            .execute();
      }
      if (rows.length < BATCH) break;
      after = rows.at(-1)!.run_id;
    }
  },
};

function hashOfStoredInput(stored: string): string | null {
  try {
    const input = JSON.parse(stored);
    return input && typeof input === 'object' && !Array.isArray(input) ? inputHash(input) : null;
  } catch {
    return null;
  }
}
