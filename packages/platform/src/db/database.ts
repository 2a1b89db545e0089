/**
 * @module db/database
 * One database per service: an embedded SQLite file (WAL) under the data folder by
 * default, or a PostgreSQL schema named after the service when a `postgres://` URL
 * is given. Callers get a Kysely instance and never branch on the driver except
 * where SQL truly differs (`database.dialect`).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';

// BIGINT columns (Unix milliseconds, counters) come back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type DialectName = 'sqlite' | 'postgres';

/** A database of any tables, for code that serves every service (migrations, probes, limiters). */
// biome-ignore lint/suspicious/noExplicitAny: Kysely's own idiom for a database whose tables are not known here
export type AnyDatabase = Database<any>;

export interface Database<DB = unknown> {
  readonly kysely: Kysely<DB>;
  readonly dialect: DialectName;
  /** The PostgreSQL pool, for libraries that need one (rate limiter, advisory locks). */
  readonly pool?: pg.Pool;
  /** The PostgreSQL schema holding this service's tables. */
  readonly schema?: string;
  /** The SQLite file. */
  readonly file?: string;
  /** The SQLite connection, for loading extensions (e.g. sqlite-vec) into it. */
  readonly sqlite?: SQLite.Database;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Service name: the SQLite file name and the PostgreSQL schema name. */
  service: string;
  /** A `postgres://` URL; absent means SQLite. */
  url?: string | undefined;
  /** Folder of the SQLite file (default `./data`). */
  dataDir?: string;
  /** Overrides the PostgreSQL schema (tests use a fresh one per run). */
  schema?: string;
  /** Overrides the SQLite file path. */
  file?: string;
  poolSize?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export async function openDatabase<DB>(options: OpenDatabaseOptions): Promise<Database<DB>> {
  return options.url ? openPostgres<DB>(options.url, options) : openSqlite<DB>(options);
}

/**
 * Pages the write-ahead log holds before a commit copies them into the database
 * file (SQLite's default is 1,000, about 4 MB). A checkpoint runs inside the commit
 * that crosses the mark, on the event loop, and waits for two fsyncs; a page
 * changed many times between checkpoints is copied once. With 10,000 (a log of at
 * most about 40 MB), a commit of six workflow writes costs 187 µs of CPU and
 * 318 µs of wall time on average against 243 and 490 with 1,000 (one machine,
 * 20,000 commits each, checkpoints included).
 */
const CHECKPOINT_PAGES = 10_000;

function openSqlite<DB>(options: OpenDatabaseOptions): Database<DB> {
  const file = resolve(options.file ?? `${options.dataDir ?? './data'}/${options.service}.sqlite`);
  mkdirSync(dirname(file), { recursive: true });
  const connection = new SQLite(file);
  // WAL keeps readers off the writer's back; NORMAL sync in WAL mode loses nothing
  // on a process crash (only an OS crash can drop the last commits).
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma(`wal_autocheckpoint = ${CHECKPOINT_PAGES}`);
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: keepingStatements(connection) }) });
  return { kysely, dialect: 'sqlite', file, sqlite: connection, close: () => kysely.destroy() };
}

/** Prepared statements kept per connection; the least recently used beyond this are dropped. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely sees it, keeping prepared statements by their SQL:
 * Kysely prepares every query anew, and preparing costs as much as running a small
 * query. A statement still being iterated (a streamed select) is busy and cannot
 * run again, so that query gets a fresh one.
 */
function keepingStatements(connection: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(text) {
      const kept = statements.get(text);
      if (kept && !kept.busy) {
        statements.delete(text); // re-inserted below: the map's order is the recency order
        statements.set(text, kept);
        return kept;
      }
      const statement = connection.prepare(text);
      if (!kept) {
        statements.set(text, statement);
        if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}

async function openPostgres<DB>(url: string, options: OpenDatabaseOptions): Promise<Database<DB>> {
  const schema = options.schema ?? options.service;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: `-c search_path=${schema}`,
    application_name: `xv-${options.service}`,
  });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  await createSchemaOnce(pool, schema);
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { kysely, dialect: 'postgres', pool, schema, close: () => kysely.destroy() };
}

/**
 * `CREATE SCHEMA IF NOT EXISTS` is not safe against a concurrent creation: two
 * instances starting at once would both create it, and one would fail on the
 * catalogue's unique index. A transaction-level advisory lock on the schema's
 * name lets one create it while the other waits, then finds it.
 */
async function createSchemaOnce(pool: pg.Pool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`xv schema ${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` in one transaction: all of it commits, or none of it does. */
export function transaction<DB, T>(
  database: Database<DB>,
  work: (trx: Transaction<DB>) => Promise<T>,
): Promise<T> {
  return database.kysely.transaction().execute(work);
}

/** True when the database answers a trivial query. */
export async function ping(database: AnyDatabase): Promise<boolean> {
  try {
    await sql`select 1`.execute(database.kysely);
    return true;
  } catch {
    return false;
  }
}
