/**
 * @module settings
 * The identity service's own settings (environment variables), on top of the platform's.
 */
import { keyEncryptionKeySetting, seconds, setting, z } from '@xv/platform';
import { trustedRootsSetting } from './passkeys/trusted-roots.js';

const count = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const identitySettings = {
  /** A session unused for this long ends (sliding). */
  sessionIdleSeconds: setting('XV_IDENTITY_SESSION_IDLE_SECONDS', seconds(12 * 3600)),
  /** A session ends this long after sign-in, however active. */
  sessionLifetimeSeconds: setting('XV_IDENTITY_SESSION_LIFETIME_SECONDS', seconds(7 * 24 * 3600)),
  /** How long `GET /api/session` reuses an answer in memory (0 turns the cache off). */
  sessionCacheMs: setting(
    'XV_IDENTITY_SESSION_CACHE_MS',
    z.coerce.number().int().min(0).max(60_000).default(2000),
  ),
  /**
   * How long `GET /api/revocations/epoch` holds a long-poll when nothing changes; the services' watches give up on
   * an answer after 35 s, so it stays below that.
   */
  revocationHoldSeconds: setting(
    'XV_IDENTITY_REVOCATION_HOLD_SECONDS',
    z.coerce.number().int().min(1).max(30).default(25),
  ),
  /**
   * Failed sign-ins (password or second factor) for one account from one address, or one known device, before
   * each further try from there must wait (1 s, then doubling); also wrong codes a signed-in person may enter
   * while managing 2FA before that is refused for `lockoutSeconds`.
   */
  accountMaxFailures: setting('XV_IDENTITY_ACCOUNT_MAX_FAILURES', count(5)),
  /** Failed sign-ins per client IP, over all accounts, before that IP is refused (passkeys count apart). */
  ipMaxFailures: setting('XV_IDENTITY_IP_MAX_FAILURES', count(50)),
  /**
   * Failed sign-ins of one account from everywhere but its known devices before sign-ins from anywhere but its
   * known devices are refused: a safety net far above what one person mistypes.
   */
  accountSafetyFailures: setting('XV_IDENTITY_ACCOUNT_SAFETY_FAILURES', count(100)),
  /** The longest wait after failed sign-ins, and the window and refusal length of the per-IP and account-wide limits. */
  lockoutSeconds: setting('XV_IDENTITY_LOCKOUT_SECONDS', seconds(15 * 60)),
  /** Registrations per client IP and hour. */
  registrationsPerIpHour: setting('XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR', count(30)),
  /** WebAuthn relying party id; default: the shared domain. */
  rpId: setting('XV_IDENTITY_RP_ID', z.string().min(1).optional()),
  rpName: setting('XV_IDENTITY_RP_NAME', z.string().min(1).default('XV')),
  /** Attestation roots a new passkey must chain to (PEM text or file); unset: any authenticator, `none` attestation. */
  passkeyTrustedRoots: setting('XV_IDENTITY_PASSKEY_TRUSTED_ROOTS', trustedRootsSetting()),
  /**
   * SMTP server for the e-mails the service sends (invitations, password resets, address checks), as
   * `smtp://user:password@host:587` or `smtps://…`; unset: messages land in the development outbox at
   * `GET /dev/outbox` instead.
   */
  smtpUrl: setting('XV_SMTP_URL', z.url({ protocol: /^smtps?$/ }).optional(), { secret: true }),
  /** The sender of those e-mails. */
  mailFrom: setting('XV_MAIL_FROM', z.string().min(3).max(254).default('XV <no-reply@localhost>')),
  /** A realm's OpenID Provider signing key this old is replaced (the old one stays in the JWKS for a week). */
  oidcKeyRotationDays: setting('XV_IDENTITY_OIDC_KEY_ROTATION_DAYS', count(90)),
  /** Requests per client address and minute to the OpenID Provider's token endpoint. */
  oidcTokenRequestsPerMinute: setting('XV_IDENTITY_OIDC_TOKEN_REQUESTS_PER_MINUTE', count(120)),
  /** Apps registering themselves (RFC 7591, as MCP clients do) per client address and hour. */
  oidcRegistrationsPerHour: setting('XV_IDENTITY_OIDC_REGISTRATIONS_PER_HOUR', count(20)),
  /** Key-encryption key for secrets at rest (issuer keys, TOTP secrets); unset: a generated file under XV_DATA_DIR. */
  kek: setting('XV_IDENTITY_KEK', keyEncryptionKeySetting(), { secret: true }),
};
