/**
 * @module secrets
 * Secrets the service makes for itself when the operator sets none (e.g. the
 * ALTCHA signing key). They live in the database, so every instance sharing it
 * uses the same one.
 */
import { randomBytes } from 'node:crypto';
import type { OrchestrationDatabase } from './db.js';

export async function generatedSecret(database: OrchestrationDatabase, name: string): Promise<string> {
  await database.kysely
    .insertInto('service_secrets')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await database.kysely
    .selectFrom('service_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
