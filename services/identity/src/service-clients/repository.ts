/**
 * @module service-clients/repository
 * Service clients: machine accounts of a realm, bound to one organization or (org
 * null) to every organization of the realm. Their bearer token (`xvc_…`) is shown
 * once; only its SHA-256 is stored and looked up.
 */
import { hashToken, newId, newSecretToken, type ServiceClientInfo } from '@xv/platform';
import type { IdentityDb, ServiceClientsTable } from '../db.js';
import { bumpRevocationEpoch } from '../revocations/epoch.js';

export const SCOPE_PATTERN = /^[a-z][a-z0-9_.-]*(:[a-z0-9_.-]+)*$/;
/** The scopes XV's services check, and what each lets a service client do; no other scope is granted. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  'did:issue': 'issue verifiable credentials for the organization',
  'attest:issue': 'issue attestations (trust)',
  'seal:issue': 'seal records and AI results (trust)',
  'anchor:write': 'anchor fingerprints on chain at once (trust)',
  sync: 'push documents for review (knowledge base)',
  'ai:read': 'search the knowledge base',
};
export const KNOWN_SCOPES = Object.keys(SCOPE_DESCRIPTIONS);

const LAST_USED_EVERY_MS = 60_000;

export function toInfo(row: ServiceClientsTable): ServiceClientInfo {
  return {
    id: row.id,
    name: row.name,
    realm_id: row.realm_id,
    org_id: row.org_id,
    scopes: JSON.parse(row.scopes) as string[],
  };
}

export async function createServiceClient(
  db: IdentityDb,
  input: { realmId: string; orgId: string | null; name: string; scopes: string[]; createdBy: string | null },
) {
  const token = newSecretToken('xvc');
  const row: ServiceClientsTable = {
    id: newId('svc'),
    realm_id: input.realmId,
    org_id: input.orgId,
    name: input.name,
    scopes: JSON.stringify([...new Set(input.scopes)]),
    token_hash: hashToken(token),
    created_by: input.createdBy,
    created_at: Date.now(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('service_clients').values(row).execute();
  return { token, client: toInfo(row) };
}

/** The live client holding `token`, or null. */
export async function verifyServiceToken(db: IdentityDb, token: string): Promise<ServiceClientInfo | null> {
  if (!token.startsWith('xvc_') || token.length > 200) return null;
  const row = await db
    .selectFrom('service_clients')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  if (row.last_used_at === null || now - row.last_used_at > LAST_USED_EVERY_MS) {
    await db.updateTable('service_clients').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  return toInfo(row);
}

export async function listServiceClients(db: IdentityDb, realmId: string, orgId: string) {
  const rows = await db
    .selectFrom('service_clients')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ ...toInfo(row), created_at: row.created_at, last_used_at: row.last_used_at }));
}

export async function findServiceClient(db: IdentityDb, realmId: string, id: string) {
  return db
    .selectFrom('service_clients')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes a client; the revocation epoch moves in the same transaction, so no service keeps trusting it. */
export async function revokeServiceClient(db: IdentityDb, id: string) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('service_clients').set({ revoked_at: Date.now() }).where('id', '=', id).execute();
    await bumpRevocationEpoch(trx);
  });
}
