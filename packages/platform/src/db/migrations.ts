/**
 * @module db/migrations
 * Each service lists its migrations in code (`src/migrations/index.ts`), in order,
 * and they run at start-up. Kysely's migrator records what ran and holds a lock, so
 * two instances starting together on PostgreSQL do not race.
 */
import { type Kysely, type Migration, Migrator } from 'kysely';
import type { AnyDatabase, DialectName } from './database.js';

/** A migration receives the dialect too, for the few statements that differ. */
export interface ServiceMigration {
  up(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
  down?(db: Kysely<unknown>, dialect: DialectName): Promise<void>;
}

export type Migrations = Record<string, ServiceMigration>;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export async function migrate(database: AnyDatabase, migrations: Migrations): Promise<string[]> {
  const provided: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    provided[name] = {
      up: (db) => migration.up(db, database.dialect),
      ...(migration.down ? { down: (db: Kysely<unknown>) => migration.down!(db, database.dialect) } : {}),
    };
  }
  const migrator = new Migrator({
    db: database.kysely,
    provider: { getMigrations: async () => provided },
    // The bookkeeping tables live beside the service's own, in its schema.
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
    // Services number their migrations in ranges (identity: 0001–0099 accounts, 0100+ credentials), so a new
    // migration may sort below one a running database already applied; it must still run.
    allowUnorderedMigrations: true,
  });
  let outcome = await migrator.migrateToLatest();
  // Kysely's PostgreSQL introspection reads the catalog of every schema; another schema dropped while it runs
  // (another database on the same server, or a parallel test run) fails the read with "schema … does not exist".
  // Nothing was changed then: try again.
  for (let attempt = 1; attempt < 5 && droppedElsewhere(outcome.error, database.schema); attempt++)
    outcome = await migrator.migrateToLatest();
  const { error, results = [] } = outcome;
  const failed = results.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown error');
    throw new MigrationError(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '));
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether `error` says a schema other than ours vanished (see `migrate`). */
function droppedElsewhere(error: unknown, ownSchema: string | undefined): boolean {
  const missing =
    error instanceof Error ? /schema "([^"]+)" does not exist/.exec(error.message)?.[1] : undefined;
  return missing !== undefined && missing !== ownSchema;
}
