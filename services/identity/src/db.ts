/**
 * @module db
 * The shape of the identity service's tables, as Kysely sees them: the accounts'
 * (migrations 0001–0099, here) and the credentials' (`credentials/tables.ts`),
 * combined in `Tables`, the type the whole service is built on.
 * Times are Unix milliseconds; booleans are 0/1; lists are JSON text.
 */
import type { Kysely } from 'kysely';
import type { CredentialTables } from './credentials/tables.js';
import type { OidcTables } from './oidc/tables.js';

export interface RealmsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface OrganizationsTable {
  id: string;
  realm_id: string;
  name: string;
  slug: string;
  verified: number;
  verified_at: number | null;
  /** 1: anonymous visitors may use the organization's public assistant (off by default). */
  public_assistant: number;
  /** 1: members must keep a second factor (removing the last one is refused). */
  require_2fa: number;
  created_at: number;
}

export interface UsersTable {
  id: string;
  realm_id: string;
  email: string;
  name: string;
  avatar_color: string;
  password_hash: string;
  /** Base32 TOTP secret once 2FA is on. */
  totp_secret: string | null;
  /** A secret being enrolled, waiting for its first code. */
  totp_pending_secret: string | null;
  /** The last accepted TOTP time step: a code of that step or an older one is refused (no replay). */
  totp_last_step: number | null;
  created_at: number;
  /** Set while an operator has disabled the account: no sign-in, no session, no membership counts. */
  disabled_at: number | null;
  /** When the person opened the address-check link sent to `email`; null: not verified. */
  email_verified_at: number | null;
}

export interface MembershipsTable {
  org_id: string;
  user_id: string;
  realm_id: string;
  role: string;
  created_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the opaque `xv_session` token: the token itself is never stored. */
  token_hash: string;
  id: string;
  realm_id: string;
  user_id: string;
  /** JSON array of authentication methods (RFC 8176 names). */
  amr: string;
  aal: string;
  auth_time: number;
  /** When this session last proved AAL2 (or more), and AAL3: authenticator changes need a recent proof. */
  aal2_at: number | null;
  aal3_at: number | null;
  created_at: number;
  last_seen_at: number;
  /** Absolute end of the session, whatever its activity. */
  expires_at: number;
  /** The browser's `User-Agent` and the client address at sign-in, shown in the account console. */
  user_agent: string | null;
  address: string | null;
}

export interface MfaChallengesTable {
  /** SHA-256 of the `xv_mfa` token. */
  token_hash: string;
  realm_id: string;
  user_id: string;
  /** Validated place to go once the second factor is given. */
  redirect: string | null;
  wanted_aal: string | null;
  expires_at: number;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
}

export interface PasskeysTable {
  /** The WebAuthn credential id, base64url. */
  id: string;
  user_id: string;
  realm_id: string;
  name: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  /** 1 when the credential cannot leave its device (backup-eligible flag off). */
  device_bound: number;
  user_verified: number;
  created_at: number;
  last_used_at: number | null;
}

export interface WebauthnChallengesTable {
  challenge: string;
  kind: string;
  user_id: string | null;
  expires_at: number;
}

export interface ServiceClientsTable {
  id: string;
  realm_id: string;
  org_id: string | null;
  name: string;
  /** JSON array of scope strings. */
  scopes: string;
  token_hash: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** One row (id 1): the revocation epoch, bumped with every change that takes access away. */
export interface AccessRevocationsTable {
  id: number;
  epoch: number;
  changed_at: number;
}

/** A message kept for the development outbox (`GET /dev/outbox`) because no SMTP server is configured. */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  created_at: number;
}

/** An invitation to join an organization; the link's token is stored only as its SHA-256. */
export interface InvitationsTable {
  id: string;
  org_id: string;
  realm_id: string;
  /** Normalised (lower-case) e-mail address the invitation was sent to. */
  email: string;
  role: string;
  token_hash: string;
  invited_by: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

/** A single-use token sent by e-mail (password reset, address check), stored as its SHA-256. */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** One entry of an account's security log. */
export interface SecurityEventsTable {
  id: string;
  user_id: string;
  kind: string;
  address: string | null;
  user_agent: string | null;
  detail: string | null;
  at: number;
}

export interface AccountTables {
  realms: RealmsTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  sessions: SessionsTable;
  mfa_challenges: MfaChallengesTable;
  recovery_codes: RecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  service_clients: ServiceClientsTable;
  access_revocations: AccessRevocationsTable;
  mail_outbox: MailOutboxTable;
  invitations: InvitationsTable;
  account_tokens: AccountTokensTable;
  security_events: SecurityEventsTable;
}

/** Every table of the service. */
export type Tables = AccountTables & CredentialTables & OidcTables;

export type IdentityDb = Kysely<Tables>;
