import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, tempDir } from '../testing/index.js';
import { openDatabase, ping, transaction } from './database.js';
import { MigrationError, type Migrations, migrate } from './migrations.js';

type Tables = {
  notes: { id: string; body: string; created_at: number };
};

const migrations: Migrations = {
  '0001_notes': {
    async up(db) {
      await db.schema
        .createTable('notes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0002_notes_index': {
    async up(db) {
      await db.schema.createIndex('notes_created_at').on('notes').column('created_at').execute();
    },
  },
};

const tagsTable: Migrations[string] = {
  async up(db) {
    await db.schema
      .createTable('tags')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .execute();
  },
};

describeEachDatabase('database', (target) => {
  it('runs pending migrations once, in order', async () => {
    const database = await target.open('dbtest');
    expect(await migrate(database, migrations)).toEqual(['0001_notes', '0002_notes_index']);
    expect(await migrate(database, migrations)).toEqual([]);
    expect(await ping(database)).toBe(true);
  });

  it('runs a migration added below one already applied (a service numbers its migrations in ranges)', async () => {
    const database = await target.open('dbtest');
    const { '0002_notes_index': _later, ...first } = migrations;
    await migrate(database, { ...first, '0100_tags': tagsTable });
    expect(await migrate(database, { ...migrations, '0100_tags': tagsTable })).toEqual(['0002_notes_index']);
  });

  it('stops on a failing migration and names it', async () => {
    const database = await target.open('dbtest');
    const broken: Migrations = {
      ...migrations,
      '0003_broken': { up: (db) => sql`not valid sql`.execute(db).then(() => {}) },
    };
    await expect(migrate(database, broken)).rejects.toThrow(MigrationError);
    await expect(migrate(database, broken)).rejects.toThrow(/0003_broken/);
  });

  it('returns BIGINT milliseconds as numbers', async () => {
    const database = await target.open('dbtest');
    await migrate(database, migrations);
    const db = database.kysely.withTables<Tables>();
    const now = Date.now();
    await db.insertInto('notes').values({ id: 'n1', body: 'hello', created_at: now }).execute();
    const row = await db.selectFrom('notes').selectAll().where('id', '=', 'n1').executeTakeFirstOrThrow();
    expect(row.created_at).toBe(now);
  });

  it('commits a transaction whole or not at all', async () => {
    const database = await target.open('dbtest');
    await migrate(database, migrations);
    const typed = database as unknown as Parameters<typeof transaction<Tables, void>>[0];
    await expect(
      transaction(typed, async (trx) => {
        await trx.insertInto('notes').values({ id: 'a', body: 'first', created_at: 1 }).execute();
        throw new Error('half way');
      }),
    ).rejects.toThrow('half way');
    await transaction(typed, async (trx) => {
      await trx.insertInto('notes').values({ id: 'b', body: 'second', created_at: 2 }).execute();
    });
    const ids = await typed.kysely.selectFrom('notes').select('id').execute();
    expect(ids.map((r) => r.id)).toEqual(['b']);
  });
});

describe('PostgreSQL isolation', () => {
  it.runIf(process.env.XV_TEST_DATABASE_URL)(
    'scale-out: instances starting at once all open a schema none had made yet',
    async () => {
      const url = process.env.XV_TEST_DATABASE_URL!;
      const schema = `t_race_${process.pid}_${Date.now().toString(36)}`;
      const opened = await Promise.allSettled(
        Array.from({ length: 6 }, () => openDatabase({ service: 'race', url, schema })),
      );
      const databases = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      try {
        expect(opened.filter((result) => result.status === 'rejected')).toEqual([]);
      } finally {
        await databases[0]?.pool?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        for (const database of databases) await database.close();
      }
    },
  );

  it.runIf(process.env.XV_TEST_DATABASE_URL)('puts each service in its own schema', async () => {
    const url = process.env.XV_TEST_DATABASE_URL!;
    const a = await openDatabase({ service: 'iso_a', url, schema: `t_iso_${process.pid}` });
    try {
      const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(a.kysely);
      expect(result.rows[0]?.schema).toBe(`t_iso_${process.pid}`);
    } finally {
      await a.pool?.query(`DROP SCHEMA t_iso_${process.pid} CASCADE`);
      await a.close();
    }
  });
});

describe('SQLite prepared statements', () => {
  type Notes = { notes: { id: string; body: string } };
  const open = async () => {
    const database = await openDatabase<Notes>({ service: 'statements', dataDir: tempDir() });
    await sql`create table notes (id text primary key, body text not null)`.execute(database.kysely);
    return database;
  };

  it('reuses a statement safely: after a stream left half read, and after the schema changed', async () => {
    const database = await open();
    const db = database.kysely;
    await db
      .insertInto('notes')
      .values([
        { id: 'a', body: 'x' },
        { id: 'b', body: 'y' },
      ])
      .execute();
    const everything = () => db.selectFrom('notes').selectAll().orderBy('id');
    for await (const row of everything().stream()) {
      expect(row.id).toBe('a');
      break; // the kept statement must be free again for the next run of the same SQL
    }
    expect(await everything().execute()).toHaveLength(2);

    const firstRow = async () => (await sql`select * from notes order by id`.execute(db)).rows[0];
    expect(await firstRow()).toEqual({ id: 'a', body: 'x' });
    await sql`alter table notes add column tag text`.execute(db);
    expect(await firstRow()).toEqual({ id: 'a', body: 'x', tag: null });
    await database.close();
  });

  it('keeps working past the size of its cache', async () => {
    const database = await open();
    for (let i = 0; i < 600; i++)
      await sql`insert into notes (id, body) values (${`n${i}`}, ${sql.lit(`body ${i}`)})`.execute(
        database.kysely,
      );
    const { count } = await database.kysely
      .selectFrom('notes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(count).toBe(600);
    await database.close();
  });
});
