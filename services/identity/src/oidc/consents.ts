/**
 * @module oidc/consents
 * The consents people gave apps, one per person and app: the consent page shows again only for a scope not
 * yet allowed. Revoking a consent (account console) removes its grant and every token issued under it.
 */
import type { IdentityDb } from '../db.js';

export interface ConsentListing {
  client_id: string;
  name: string;
  logo_url: string | null;
  /** The app registered itself (RFC 7591): no organization vouches for it. */
  self_registered: boolean;
  scopes: string[];
  created_at: number;
  updated_at: number;
}

export async function rememberedGrantId(db: IdentityDb, realmId: string, userId: string, clientId: string) {
  const row = await db
    .selectFrom('oidc_consents')
    .select('grant_id')
    .where('realm_id', '=', realmId)
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row?.grant_id;
}

/** The organization a person's consent to an app was given in, or null. */
export async function consentOrganization(db: IdentityDb, userId: string, clientId: string) {
  const row = await db
    .selectFrom('oidc_consents')
    .select('org_id')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row?.org_id ?? null;
}

export async function rememberConsent(
  db: IdentityDb,
  input: {
    realmId: string;
    userId: string;
    clientId: string;
    grantId: string;
    orgId: string | null;
    scopes: string[];
  },
) {
  const now = Date.now();
  const scopes = JSON.stringify(input.scopes);
  await db
    .insertInto('oidc_consents')
    .values({
      user_id: input.userId,
      client_id: input.clientId,
      realm_id: input.realmId,
      grant_id: input.grantId,
      org_id: input.orgId,
      scopes,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'client_id'])
        .doUpdateSet({ grant_id: input.grantId, scopes, updated_at: now }),
    )
    .execute();
}

/** The apps a person allowed, newest first. */
export async function consentsOf(db: IdentityDb, userId: string): Promise<ConsentListing[]> {
  const rows = await db
    .selectFrom('oidc_consents')
    .innerJoin('oidc_clients', 'oidc_clients.id', 'oidc_consents.client_id')
    .select([
      'oidc_consents.client_id',
      'oidc_clients.name',
      'oidc_clients.logo_url',
      'oidc_consents.scopes',
      'oidc_consents.created_at',
      'oidc_consents.updated_at',
    ])
    .where('oidc_consents.user_id', '=', userId)
    .where('oidc_clients.revoked_at', 'is', null)
    .execute();
  // Self-registered apps (registration.ts) live in `oidc_models`; their name is in the stored metadata.
  const selfRegistered = await db
    .selectFrom('oidc_consents')
    .innerJoin('oidc_models', (join) =>
      join
        .onRef('oidc_models.id', '=', 'oidc_consents.client_id')
        .onRef('oidc_models.realm_id', '=', 'oidc_consents.realm_id')
        .on('oidc_models.model', '=', 'Client'),
    )
    .select([
      'oidc_consents.client_id',
      'oidc_models.payload',
      'oidc_models.expires_at',
      'oidc_consents.scopes',
      'oidc_consents.created_at',
      'oidc_consents.updated_at',
    ])
    .where('oidc_consents.user_id', '=', userId)
    .execute();
  const now = Date.now();
  return [
    ...rows.map((row) => ({ ...row, self_registered: false })),
    ...selfRegistered
      .filter((row) => row.expires_at === null || row.expires_at > now)
      .map(({ payload, expires_at: _, ...row }) => ({
        ...row,
        name: String((JSON.parse(payload) as { client_name?: unknown }).client_name),
        logo_url: null,
        self_registered: true,
      })),
  ]
    .sort((a, b) => b.updated_at - a.updated_at)
    .map((row) => ({ ...row, scopes: JSON.parse(row.scopes) as string[] }));
}

/** Withdraws a person's consent to an app: its grant and the tokens under it go. False when there was none. */
export async function revokeConsent(db: IdentityDb, userId: string, clientId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .deleteFrom('oidc_consents')
      .where('user_id', '=', userId)
      .where('client_id', '=', clientId)
      .returning(['grant_id', 'realm_id'])
      .executeTakeFirst();
    if (!row) return false;
    await deleteGrant(trx, row.realm_id, row.grant_id);
    return true;
  });
}

/** Deletes a grant and everything issued under it (codes, access and refresh tokens). */
export async function deleteGrant(db: IdentityDb, realmId: string, grantId: string): Promise<void> {
  await db
    .deleteFrom('oidc_models')
    .where('realm_id', '=', realmId)
    .where((eb) =>
      eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]),
    )
    .execute();
}
