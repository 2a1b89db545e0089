/**
 * @module e2e/support/openapi-snapshot
 * Read-only access to the database of a service the platform harness runs (its
 * SQLite file, or its PostgreSQL schema), and snapshots of it: per table the row
 * count and a SHA-256 of its rows, so "a rejected request changed nothing" and
 * "this write survived the crash" can be checked from outside the process.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceName } from '@xv/platform';
import { SERVICES } from '@xv/platform';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Platform } from './platform.js';

export interface ServiceDatabase {
  tables(): Promise<string[]>;
  rows(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

/** Opens the service's database next to the running service (reads only). */
export async function openServiceDatabase(
  platform: Platform,
  service: ServiceName,
  databaseUrl: string | undefined,
): Promise<ServiceDatabase> {
  if (databaseUrl) {
    const schema = platform.env[`XV_${SERVICES[service].envKey}_DATABASE_SCHEMA`];
    if (!schema) throw new Error(`no schema for ${service}`);
    const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
    await client.connect();
    return {
      async tables() {
        const result = await client.query(
          `SELECT table_name FROM information_schema.tables
           WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name`,
          [schema],
        );
        return result.rows.map((row) => row.table_name as string);
      },
      async rows(sql, params = []) {
        return (await client.query(sql, params)).rows;
      },
      close: () => client.end(),
    };
  }
  // WAL lets this reader look while the service writes; a crashed writer's WAL is
  // replayed by whoever opens the file next.
  const file = join(platform.dataDir, `${service}.sqlite`);
  const connection = new SQLite(file, { readonly: true, fileMustExist: true });
  return {
    async tables() {
      const rows = connection
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name`,
        )
        .all() as { name: string }[];
      return rows.map((row) => row.name);
    },
    async rows(sql, params = []) {
      return connection.prepare(sql).all(...params) as Record<string, unknown>[];
    },
    async close() {
      connection.close();
    },
  };
}

/** Tables (or single columns of them) a rejected request may legitimately change, with the reason. */
export interface Bookkeeping {
  table: string;
  /** Only these columns are ignored; absent means the whole table. */
  columns?: string[];
  reason: string;
}

export type Snapshot = Map<string, { rows: number; hash: string }>;

/** Row count and content hash of every table except the bookkeeping ones. */
export async function snapshot(database: ServiceDatabase, bookkeeping: Bookkeeping[]): Promise<Snapshot> {
  const result: Snapshot = new Map();
  for (const table of await database.tables()) {
    const rule = bookkeeping.find((b) => b.table === table);
    if (rule && !rule.columns) continue;
    const rows = await database.rows(`SELECT * FROM "${table}"`);
    const lines = rows
      .map((row) => {
        for (const column of rule?.columns ?? []) delete row[column];
        return JSON.stringify(row, (_, value) =>
          Buffer.isBuffer(value) || value instanceof Uint8Array ? Buffer.from(value).toString('hex') : value,
        );
      })
      .sort();
    result.set(table, {
      rows: rows.length,
      hash: createHash('sha256').update(lines.join('\n')).digest('hex'),
    });
  }
  return result;
}

/** The tables whose count or content differ, e.g. `["documents: 3 → 4 rows"]`. */
export function snapshotChanges(before: Snapshot, after: Snapshot): string[] {
  const changes: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table);
    const b = after.get(table);
    if (!a || !b) changes.push(`${table}: ${a ? 'dropped' : 'created'}`);
    else if (a.rows !== b.rows) changes.push(`${table}: ${a.rows} → ${b.rows} rows`);
    else if (a.hash !== b.hash) changes.push(`${table}: contents changed (${a.rows} rows)`);
  }
  return changes;
}
