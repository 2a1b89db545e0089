/**
 * @module oidc/clients
 * The apps an organization registers to sign its people in with XV. A confidential app gets a secret
 * (`xvo_…`, 256 random bits) shown once; only its SHA-256 is stored, and the provider compares a presented
 * secret by hashing it (`compareHashedSecret`). A public app (a single-page or native app) has no secret and
 * must use PKCE with S256. Redirect URIs are matched exactly, as registered.
 */
import { constantTimeEqual, hashToken, newId, newSecretToken } from '@xv/platform';
import type { AdapterPayload } from 'oidc-provider';
import type { IdentityDb } from '../db.js';
import { deleteGrant } from './consents.js';
import type { OidcClientsTable } from './tables.js';

/** The scopes an app may ask for, and what the consent page says each one shares. */
export const OIDC_SCOPES: Record<string, string> = {
  openid: 'Know who you are (your XV account id)',
  profile: 'See your name',
  email: 'See your e-mail address and whether it is verified',
  organizations: 'See the organizations you belong to and your role in each',
  offline_access: 'Stay signed in to the app when you are away',
};
export const OIDC_SCOPE_NAMES = Object.keys(OIDC_SCOPES);

/** The scopes of XV's own services (resource servers), in words for the consent page. */
export const RESOURCE_SCOPES: Record<string, string> = {
  sync: 'Push documents to your organization’s knowledge base for review',
  'ai:read': 'Search your organization’s knowledge base',
};

/**
 * XV's desktop client (`xv kb login`): a public app of every realm that signs in through the device flow
 * (RFC 8628) and holds a `sync` token for the knowledge base.
 */
export const DESKTOP_CLIENT_ID = 'xv-desktop';
const DESKTOP_CLIENT: AdapterPayload = {
  client_id: DESKTOP_CLIENT_ID,
  client_name: 'XV desktop client',
  grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'none',
  scope: 'openid offline_access sync',
};

export type ClientKind = 'confidential' | 'public';

export interface NewOidcClient {
  realmId: string;
  orgId: string;
  name: string;
  logoUrl: string | null;
  kind: ClientKind;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  scopes: string[];
  createdBy: string | null;
}

/** An app as its organization's admins see it (never the secret). */
export interface OidcClientView {
  client_id: string;
  org_id: string;
  name: string;
  logo_url: string | null;
  kind: ClientKind;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  scopes: string[];
  created_at: number;
}

export function clientView(row: OidcClientsTable): OidcClientView {
  return {
    client_id: row.id,
    org_id: row.org_id,
    name: row.name,
    logo_url: row.logo_url,
    kind: row.kind === 'public' ? 'public' : 'confidential',
    redirect_uris: JSON.parse(row.redirect_uris) as string[],
    post_logout_redirect_uris: JSON.parse(row.post_logout_redirect_uris) as string[],
    scopes: JSON.parse(row.scopes) as string[],
    created_at: row.created_at,
  };
}

/** Registers an app; the secret of a confidential one is in the answer, and nowhere else ever after. */
export async function createOidcClient(
  db: IdentityDb,
  input: NewOidcClient,
): Promise<{ client: OidcClientView; clientSecret: string | null }> {
  const clientSecret = input.kind === 'confidential' ? newSecretToken('xvo') : null;
  // openid is always there: without it the app is no OpenID Connect client.
  const scopes = [...new Set(['openid', ...input.scopes])];
  const row: OidcClientsTable = {
    id: newId('app'),
    realm_id: input.realmId,
    org_id: input.orgId,
    name: input.name,
    logo_url: input.logoUrl,
    kind: input.kind,
    secret_hash: clientSecret ? hashToken(clientSecret) : null,
    redirect_uris: JSON.stringify([...new Set(input.redirectUris)]),
    post_logout_redirect_uris: JSON.stringify([...new Set(input.postLogoutRedirectUris)]),
    scopes: JSON.stringify(scopes),
    created_by: input.createdBy,
    created_at: Date.now(),
    revoked_at: null,
  };
  await db.insertInto('oidc_clients').values(row).execute();
  return { client: clientView(row), clientSecret };
}

export async function listOidcClients(
  db: IdentityDb,
  realmId: string,
  orgId: string,
): Promise<OidcClientView[]> {
  const rows = await db
    .selectFrom('oidc_clients')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map(clientView);
}

export async function findOidcClient(db: IdentityDb, realmId: string, clientId: string) {
  if (typeof clientId !== 'string' || clientId.length > 100) return undefined;
  return db
    .selectFrom('oidc_clients')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Removes an app of the organization; true when there was one. Its grants and tokens are removed with it. */
export async function revokeOidcClient(db: IdentityDb, realmId: string, orgId: string, clientId: string) {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('oidc_clients')
      .set({ revoked_at: Date.now() })
      .where('realm_id', '=', realmId)
      .where('org_id', '=', orgId)
      .where('id', '=', clientId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    const grants = await trx
      .selectFrom('oidc_consents')
      .select('grant_id')
      .where('client_id', '=', clientId)
      .execute();
    for (const { grant_id } of grants) await deleteGrant(trx, realmId, grant_id);
    await trx.deleteFrom('oidc_consents').where('client_id', '=', clientId).execute();
    return true;
  });
}

/** The client as oidc-provider reads it (`Client` model), or undefined when the realm has no such live app. */
export async function clientMetadata(
  db: IdentityDb,
  realmId: string,
  clientId: string,
): Promise<AdapterPayload | undefined> {
  if (clientId === DESKTOP_CLIENT_ID) return DESKTOP_CLIENT;
  const row = await findOidcClient(db, realmId, clientId);
  if (!row) return undefined;
  const view = clientView(row);
  return {
    client_id: row.id,
    // The stored hash stands in for the secret: the provider compares through `compareHashedSecret`.
    ...(row.secret_hash ? { client_secret: row.secret_hash } : {}),
    client_name: row.name,
    ...(row.logo_url ? { logo_uri: row.logo_url } : {}),
    redirect_uris: view.redirect_uris,
    post_logout_redirect_uris: view.post_logout_redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: row.secret_hash ? 'client_secret_basic' : 'none',
    id_token_signed_response_alg: 'RS256',
    scope: view.scopes.join(' '),
    org_id: row.org_id,
  };
}

/** Whether `presented` is the secret whose SHA-256 is `storedHash`. */
export function compareHashedSecret(storedHash: string, presented: string): boolean {
  return (
    typeof presented === 'string' &&
    presented.length <= 200 &&
    constantTimeEqual(hashToken(presented), storedHash)
  );
}
