/**
 * Inserts compiled once per row count: every batch stores its own values, a
 * conflict is still reported as not inserted, and rows of another shape are built
 * afresh.
 */
import { migrate } from '@xv/platform';
import { describeEachDatabase } from '@xv/platform/testing';
import type { Kysely } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { CompiledInsert } from '../src/credentials/shared/compiled-insert.js';
import type { CredentialTables, KbPresentationsTable } from '../src/credentials/tables.js';
import { migrations } from '../src/migrations/index.js';

describeEachDatabase('credentials: inserts compiled once per row count', (target) => {
  let db: Kysely<CredentialTables>;
  let insert: CompiledInsert<KbPresentationsTable, { jwt_hash: string }>;
  let builds = 0;

  beforeAll(async () => {
    const database = await target.open<CredentialTables>('identity');
    await migrate(database, migrations);
    db = database.kysely;
    insert = new CompiledInsert(db, (rows: KbPresentationsTable[]) => {
      builds++;
      return db
        .insertInto('kb_presentations')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning('jwt_hash');
    });
  });

  const stored = async (hashes: string[]) =>
    (
      await db
        .selectFrom('kb_presentations')
        .select(['jwt_hash', 'expires_at'])
        .where('jwt_hash', 'in', hashes)
        .orderBy('jwt_hash')
        .execute()
    ).map((row) => ({ jwt_hash: row.jwt_hash, expires_at: Number(row.expires_at) }));

  it('stores each batch with its own values, building a size only once', async () => {
    const first = [
      { jwt_hash: 'a1', expires_at: 1 },
      { jwt_hash: 'a2', expires_at: 2 },
    ];
    const second = [
      { jwt_hash: 'b1', expires_at: 3 },
      { jwt_hash: 'b2', expires_at: 4 },
    ];
    expect((await insert.execute(first)).map((r) => r.jwt_hash).sort()).toEqual(['a1', 'a2']);
    expect((await insert.execute(second)).map((r) => r.jwt_hash).sort()).toEqual(['b1', 'b2']);
    expect(builds).toBe(1);
    expect(await stored(['a1', 'a2', 'b1', 'b2'])).toEqual([...first, ...second]);
    await insert.execute([{ jwt_hash: 'c1', expires_at: 5 }]);
    expect(builds).toBe(2);
  });

  it('answers only the rows that went in when some conflict', async () => {
    const rows = [
      { jwt_hash: 'b1', expires_at: 9 },
      { jwt_hash: 'd1', expires_at: 6 },
    ];
    expect((await insert.execute(rows)).map((r) => r.jwt_hash)).toEqual(['d1']);
    expect(await stored(['b1', 'd1'])).toEqual([
      { jwt_hash: 'b1', expires_at: 3 },
      { jwt_hash: 'd1', expires_at: 6 },
    ]);
  });

  it('builds rows whose columns come in another order afresh', async () => {
    const before = builds;
    const rows = [
      { expires_at: 7, jwt_hash: 'e1' },
      { jwt_hash: 'e2', expires_at: 8 },
    ] as KbPresentationsTable[];
    expect((await insert.execute(rows)).map((r) => r.jwt_hash).sort()).toEqual(['e1', 'e2']);
    expect(builds).toBe(before + 1);
    expect(await stored(['e1', 'e2'])).toEqual([
      { jwt_hash: 'e1', expires_at: 7 },
      { jwt_hash: 'e2', expires_at: 8 },
    ]);
  });
});
