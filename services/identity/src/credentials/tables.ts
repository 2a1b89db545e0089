/**
 * @module credentials/tables
 * The tables of credentials, issuer keys, status lists and the OpenID4VCI wallet
 * flow (migrations 0100 and above), as Kysely sees them. Times are Unix
 * milliseconds unless a name says seconds; secrets (codes, tokens, nonces) are
 * stored only as SHA-256 hashes.
 */

export interface IssuerKeysTable {
  /** The key id: the fragment of the verification method in the DID document. */
  kid: string;
  alg: string;
  /** JSON of the public JWK. */
  public_jwk: string;
  /** PKCS#8 private key sealed with AES-256-GCM under the key-encryption key. */
  private_key: string;
  /** `active` signs new credentials; `retired` only verifies old ones. */
  state: string;
  created_at: number;
  retired_at: number | null;
}

export interface StatusListsTable {
  id: string;
  bits: number;
  size: number;
  /** Indexes handed out so far; a list is closed once half full, so random picks stay cheap. */
  allocated: number;
  /** Bumped on every revocation, so a cached signed list knows it is stale. */
  version: number;
  created_at: number;
}

export interface CredentialsTable {
  id: string;
  realm_id: string;
  type: string;
  vct: string;
  subject: string;
  user_id: string | null;
  org_id: string | null;
  /** JSON of the credential's own claims (what the holder can disclose). */
  claims: string;
  /** RFC 7638 thumbprint of the holder key the credential is bound to (`cnf.jwk`). */
  holder_jkt: string | null;
  status_list_id: string;
  status_idx: number;
  /** Who asked for it: a user id or a service client id. */
  issued_by: string;
  /** `api`, `wallet` or `service`. */
  channel: string;
  created_at: number;
  /** The credential's `iat` and `exp`, Unix seconds. */
  iat: number;
  exp: number;
  revoked_at: number | null;
  revoked_by: string | null;
  /** The SD-JWT as issued from the account page, sealed under the key-encryption key; null otherwise. */
  sdjwt_sealed: string | null;
}

export interface KbPresentationsTable {
  /** SHA-256 of a Key Binding JWT already accepted: the same one is a replay. */
  jwt_hash: string;
  expires_at: number;
}

export interface WalletOffersTable {
  id: string;
  realm_id: string;
  user_id: string;
  org_id: string | null;
  /** JSON array of credential configuration ids. */
  types: string;
  code_hash: string;
  /** SHA-256 of the code hash and the PIN; null without a PIN. */
  tx_code_hash: string | null;
  tx_attempts: number;
  created_at: number;
  expires_at: number;
  /** Set once, atomically, when the code is exchanged or burnt. */
  used_at: number | null;
  burned: number;
  /** SHA-256 of the reference in the offer's `credential_offer_uri`. */
  reference_hash: string | null;
  /** The offer document, sealed under the key-encryption key; dropped once served. */
  offer_document: string | null;
  /** Set once, atomically, when a wallet fetched the offer document. */
  document_served_at: number | null;
}

export interface WalletTokensTable {
  token_hash: string;
  offer_id: string;
  realm_id: string;
  user_id: string;
  org_id: string | null;
  types: string;
  created_at: number;
  expires_at: number;
}

export interface WalletNoncesTable {
  nonce_hash: string;
  /** SHA-256 of the access token the nonce was issued with; null: issued to a wallet that showed none. */
  token_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A type (not an interface) so Kysely's `withTables<CredentialTables>()` accepts it. */
export type CredentialTables = {
  issuer_keys: IssuerKeysTable;
  status_lists: StatusListsTable;
  credentials: CredentialsTable;
  kb_presentations: KbPresentationsTable;
  wallet_offers: WalletOffersTable;
  wallet_tokens: WalletTokensTable;
  wallet_nonces: WalletNoncesTable;
};
