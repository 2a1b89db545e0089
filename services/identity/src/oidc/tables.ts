/**
 * @module oidc/tables
 * The OpenID Provider's tables (migration `0011_openid_provider`). Times are Unix milliseconds.
 */

/** One stored oidc-provider model (grant, code, token, session, interaction, …) of a realm. */
export interface OidcModelsTable {
  realm_id: string;
  /** The oidc-provider model name: `Grant`, `AuthorizationCode`, `RefreshToken`, `Session`, `Interaction`, … */
  model: string;
  id: string;
  /** The model's payload as oidc-provider gave it, JSON. */
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** Past this the row is gone for oidc-provider (and swept); null: no expiry. */
  expires_at: number | null;
  /** When a single-use model (a code, a rotated refresh token) was used. */
  consumed_at: number | null;
}

/** A key of a realm's provider: `sig` signs tokens (private JWK), `cookie` signs its cookies. Sealed with the KEK. */
export interface OidcKeysTable {
  kid: string;
  realm_id: string;
  use: string;
  sealed: string;
  created_at: number;
}

/** An app an organization registered to sign its people in with XV. */
export interface OidcClientsTable {
  /** The `client_id`. */
  id: string;
  realm_id: string;
  org_id: string;
  name: string;
  logo_url: string | null;
  /** `confidential` (has a secret) or `public` (PKCE only). */
  kind: string;
  /** SHA-256 of the client secret, hex; null for public clients. */
  secret_hash: string | null;
  /** JSON arrays of exact URIs. */
  redirect_uris: string;
  post_logout_redirect_uris: string;
  /** JSON array of the scopes the app may ask for. */
  scopes: string;
  created_by: string | null;
  created_at: number;
  revoked_at: number | null;
}

/** What a person allowed an app: remembered, so the consent page shows once per app and new scope. */
export interface OidcConsentsTable {
  user_id: string;
  client_id: string;
  realm_id: string;
  /** The oidc-provider grant holding the consent; revoking it revokes the tokens issued under it. */
  grant_id: string;
  /** The organization the person acted in when they allowed it: tokens for XV's own services act in it. */
  org_id: string | null;
  /** JSON array of the scopes allowed. */
  scopes: string;
  created_at: number;
  updated_at: number;
}

export interface OidcTables {
  oidc_models: OidcModelsTable;
  oidc_keys: OidcKeysTable;
  oidc_clients: OidcClientsTable;
  oidc_consents: OidcConsentsTable;
}
