import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../testing/index.js';
import { compileQuery, type Param } from './compiled-query.js';
import { type Database, transaction } from './database.js';

type Tables = {
  notes: { id: string; realm: string; body: string; created_at: number };
};

describeEachDatabase('a query compiled once', (target) => {
  let database: Database<Tables>;
  beforeAll(async () => {
    database = await target.open<Tables>('compiled');
    await database.kysely.schema
      .createTable('notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('realm', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await database.kysely
      .insertInto('notes')
      .values([
        { id: 'n1', realm: 'default', body: 'first', created_at: 1 },
        { id: 'n2', realm: 'default', body: 'second', created_at: 2 },
        { id: 'n3', realm: 'other', body: 'third', created_at: 3 },
      ])
      .execute();
  });

  it('answers each call with its own values, as the built query does, constants kept', async () => {
    const db = database.kysely;
    const built = (id: string, realm: string) =>
      db
        .selectFrom('notes')
        .select(['id', 'body'])
        .where('id', '=', id)
        .where('realm', '=', realm)
        .where('created_at', '>', 0);
    const byId = compileQuery(db, (param: Param<{ id: string; realm: string }>) =>
      built(param('id'), param('realm')),
    );
    for (const [id, realm] of [
      ['n1', 'default'],
      ['n2', 'default'],
      ['n3', 'default'],
      ['n3', 'other'],
      ['missing', 'default'],
    ] as const)
      expect(await byId.execute({ id, realm })).toEqual(await built(id, realm).execute());
    expect(await byId.takeFirst({ id: 'n2', realm: 'default' })).toEqual({ id: 'n2', body: 'second' });
    expect(await byId.takeFirst({ id: 'n2', realm: 'other' })).toBeUndefined();
  });

  it('takes one value in several places, and runs in a transaction when given one', async () => {
    const db = database.kysely;
    const either = compileQuery(db, (param: Param<{ word: string }>) =>
      db
        .selectFrom('notes')
        .select('id')
        .where((eb) => eb.or([eb('body', '=', param('word')), eb('id', '=', param('word'))]))
        .orderBy('id'),
    );
    expect(await either.execute({ word: 'n1' })).toEqual([{ id: 'n1' }]);
    expect(await either.execute({ word: 'third' })).toEqual([{ id: 'n3' }]);
    const inside = await transaction(database, (trx) => either.execute({ word: 'second' }, trx));
    expect(inside).toEqual([{ id: 'n2' }]);
  });

  it('refuses, when defined, a value that did not become a parameter', () => {
    const db = database.kysely;
    expect(() =>
      compileQuery(db, (param: Param<{ body: string }>) => {
        param('body');
        return db.selectFrom('notes').select('id').where('body', '=', 'first');
      }),
    ).toThrow(/body did not become a parameter/);
    // Kysely itself refuses to write a placeholder into the SQL text.
    expect(() =>
      compileQuery(db, (param: Param<{ body: string }>) =>
        db
          .selectFrom('notes')
          .select('id')
          .where('body', '=', sql.lit(param('body'))),
      ),
    ).toThrow();
  });
});
