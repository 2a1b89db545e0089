/**
 * @module oidc/registration
 * Apps that register themselves (Dynamic Client Registration, RFC 7591), as MCP clients do: open to anyone, so
 * held to what such an app needs and nothing more. Only public apps (`token_endpoint_auth_method: none`, PKCE
 * S256 as for every app), only the code flow, redirect URIs on a loopback address over http (any port,
 * RFC 8252) or over https, scopes `openid` and `ai:read` only, tokens only for the knowledge base's MCP
 * endpoint, no refresh tokens (the app asks again; with a remembered consent that is a redirect). Everything
 * else a registration says is dropped (logos, key sets, sector identifiers: nothing is fetched for such an
 * app). The consent page says the app registered itself. An app no request names for
 * `SELF_REGISTERED_UNUSED_DAYS` days is removed, with the consents given to it.
 */
import { newId } from '@xv/platform';
import { type AdapterPayload, errors } from 'oidc-provider';
import type { IdentityDb } from '../db.js';
import { deleteGrant } from './consents.js';

/** The `client_id` of a self-registered app starts with this: such apps live in `oidc_models`, model `Client`. */
export const SELF_REGISTERED_PREFIX = 'dcr';
/** The scopes a self-registered app may hold. */
export const SELF_REGISTERED_SCOPES = ['openid', 'ai:read'];
/** A self-registered app unused this long is removed. */
export const SELF_REGISTERED_UNUSED_DAYS = 30;
const UNUSED_MS = SELF_REGISTERED_UNUSED_DAYS * 24 * 3600 * 1000;
/** Its expiry moves on at most this often (one write a day, not one per request). */
const TOUCH_EVERY_MS = 24 * 3600 * 1000;
const MAX_NAME_LENGTH = 100;
const MAX_REDIRECT_URIS = 10;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** The metadata a self-registered app keeps; the rest of what it sent is dropped. */
const KEPT = new Set([
  'client_id',
  'client_id_issued_at',
  'client_name',
  'redirect_uris',
  'grant_types',
  'response_types',
  'token_endpoint_auth_method',
  'scope',
  'application_type',
  'software_id',
  'software_version',
]);

export function isSelfRegistered(clientId: string | undefined): boolean {
  return typeof clientId === 'string' && clientId.startsWith(`${SELF_REGISTERED_PREFIX}_`);
}

export function newSelfRegisteredId(): string {
  return newId(SELF_REGISTERED_PREFIX);
}

/**
 * Holds a registration to the rules above: refuses what would widen access (a secret, another grant, a
 * redirect elsewhere, another scope), narrows what only asks for more than it gets (refresh tokens,
 * `offline_access`: RFC 7591 §3.2.1 lets the server replace requested values), drops the rest. Called by
 * oidc-provider on the registration's metadata before its own checks.
 */
export function holdRegistration(metadata: Record<string, unknown>): void {
  for (const key of Object.keys(metadata)) if (!KEPT.has(key)) delete metadata[key];
  if (metadata.token_endpoint_auth_method !== 'none')
    throw new errors.InvalidClientMetadata(
      'only public apps may register themselves: token_endpoint_auth_method must be none',
    );
  const grants = asStrings(metadata.grant_types, ['authorization_code']);
  if (grants.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token'))
    throw new errors.InvalidClientMetadata('grant_types may only be authorization_code');
  metadata.grant_types = ['authorization_code'];
  const responseTypes = asStrings(metadata.response_types, ['code']);
  if (responseTypes.some((type) => type !== 'code'))
    throw new errors.InvalidClientMetadata('response_types may only be code');
  metadata.response_types = ['code'];
  const redirects = asStrings(metadata.redirect_uris, []);
  if (!redirects.length || redirects.length > MAX_REDIRECT_URIS)
    throw new errors.InvalidRedirectUri(`register 1 to ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of redirects)
    if (!allowedRedirect(uri))
      throw new errors.InvalidRedirectUri(
        'redirect_uris must be http://127.0.0.1:{port}, http://localhost:{port} or https URLs',
      );
  // Loopback redirects keep any port (RFC 8252 §7.3): oidc-provider allows that for native apps only.
  metadata.application_type = redirects.every((uri) => new URL(uri).protocol === 'http:') ? 'native' : 'web';
  const asked = typeof metadata.scope === 'string' ? metadata.scope.split(' ').filter(Boolean) : [];
  const beyond = asked.filter(
    (scope) => scope !== 'offline_access' && !SELF_REGISTERED_SCOPES.includes(scope),
  );
  if (beyond.length)
    throw new errors.InvalidClientMetadata(
      `a self-registered app may only hold the scopes ${SELF_REGISTERED_SCOPES.join(' ')} (not ${beyond.join(' ')})`,
    );
  metadata.scope = SELF_REGISTERED_SCOPES.join(' ');
  const name = typeof metadata.client_name === 'string' ? metadata.client_name.trim() : '';
  if (name.length > MAX_NAME_LENGTH)
    throw new errors.InvalidClientMetadata(`client_name may be at most ${MAX_NAME_LENGTH} characters`);
  metadata.client_name = name || 'An unnamed app';
}

function asStrings(value: unknown, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    throw new errors.InvalidClientMetadata('expected an array of strings');
  return value as string[];
}

function allowedRedirect(uri: string): boolean {
  const url = URL.parse(uri);
  if (!url || url.hash || url.username || url.password) return false;
  if (url.protocol === 'https:') return !LOOPBACK_HOSTS.has(url.hostname);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** The stored metadata of a live self-registered app; each find moves its expiry on (at most daily). */
export async function findSelfRegistered(
  db: IdentityDb,
  realmId: string,
  clientId: string,
  now = Date.now(),
): Promise<AdapterPayload | undefined> {
  if (!isSelfRegistered(clientId) || clientId.length > 100) return undefined;
  const row = await db
    .selectFrom('oidc_models')
    .select(['payload', 'expires_at'])
    .where('realm_id', '=', realmId)
    .where('model', '=', 'Client')
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!row || (row.expires_at !== null && row.expires_at <= now)) return undefined;
  if (row.expires_at === null || row.expires_at - now < UNUSED_MS - TOUCH_EVERY_MS)
    await db
      .updateTable('oidc_models')
      .set({ expires_at: now + UNUSED_MS })
      .where('realm_id', '=', realmId)
      .where('model', '=', 'Client')
      .where('id', '=', clientId)
      .execute();
  return JSON.parse(row.payload) as AdapterPayload;
}

/** When a newly registered app is removed unless it is used. */
export function selfRegisteredExpiry(now = Date.now()): number {
  return now + UNUSED_MS;
}

/** Removes the consents (and their grants) given to self-registered apps that expired; before the sweep. */
export async function forgetExpiredSelfRegistered(db: IdentityDb, now = Date.now()): Promise<void> {
  const expired = await db
    .selectFrom('oidc_models')
    .select(['realm_id', 'id'])
    .where('model', '=', 'Client')
    .where('expires_at', '<=', now)
    .execute();
  for (const client of expired) {
    const consents = await db
      .deleteFrom('oidc_consents')
      .where('realm_id', '=', client.realm_id)
      .where('client_id', '=', client.id)
      .returning('grant_id')
      .execute();
    for (const { grant_id } of consents) await deleteGrant(db, client.realm_id, grant_id);
  }
}
