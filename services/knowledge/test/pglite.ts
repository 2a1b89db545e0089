/**
 * A knowledge database on PGlite (PostgreSQL in WebAssembly) with its bundled
 * pgvector extension, so the pgvector SQL is tested although Debian's
 * PostgreSQL has no pgvector. Kysely's PostgreSQL dialect talks to it through a
 * one-connection pool: callers queue, so transactions never interleave.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { Kysely, PostgresDialect } from 'kysely';
import type { KnowledgeDatabase, KnowledgeTables } from '../src/db.js';

export async function openPgliteDatabase(): Promise<KnowledgeDatabase & { pglite: PGlite }> {
  const pglite = await PGlite.create({ extensions: { vector } });
  let queue: Promise<void> = Promise.resolve();
  const client = {
    async query(text: string, parameters: unknown[] = []) {
      const result = await pglite.query(text, parameters);
      const command = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SELECT';
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
    },
    release() {},
  };
  const pool = {
    async connect() {
      let release!: () => void;
      const previous = queue;
      queue = new Promise<void>((resolve) => {
        release = resolve;
      });
      await previous;
      return { ...client, release };
    },
    async end() {},
  };
  // biome-ignore lint/suspicious/noExplicitAny: a structural stand-in for pg.Pool.
  const kysely = new Kysely<KnowledgeTables>({ dialect: new PostgresDialect({ pool: pool as any }) });
  return {
    kysely,
    dialect: 'postgres',
    pglite,
    close: async () => {
      await kysely.destroy();
      await pglite.close();
    },
  };
}
