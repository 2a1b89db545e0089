/**
 * @module http/context
 * What every route module of the identity service receives: the typed database,
 * the domain objects `setup` built (session store, revocation epoch, rate limiters,
 * key-encryption key), the guard, the page assets and the service's settings.
 * Route modules are `registerXRoutes(app, identity)`.
 */

import {
  type Database,
  type KeyEncryptionKey,
  platformErrors,
  SESSION_COOKIE,
  type Settings,
} from '@xv/platform';
import { type App, AuthGuard, serviceOrigins } from '@xv/platform/http';
import { type ClientAssets, registerClientAssets } from '@xv/platform/pages';
import type { ServiceContext } from '@xv/platform/service';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { findOrganization } from '../accounts/repository.js';
import type { IdentityDb, Tables } from '../db.js';
import type { Mailer } from '../mail/mailer.js';
import type { ChangePolicy } from '../mfa/authenticator-changes.js';
import type { RevocationEpoch } from '../revocations/epoch.js';
import { verifyServiceToken } from '../service-clients/repository.js';
import type { SessionRecord, SessionStore } from '../sessions/store.js';
import type { identitySettings } from '../settings.js';
import type { IdentityLimiters } from '../sign-in/limiters.js';
import type { SignInThrottle } from '../sign-in/throttle.js';
import type { RedirectPolicy } from './redirects.js';

export type { IdentityLimiters };
export type IdentityConfig = Settings<typeof identitySettings>;

/** A member's role changed or their membership ended (`role` null). */
export interface MembershipChanged {
  orgId: string;
  userId: string;
  role: string | null;
  /** The administrator who made the change. */
  byUserId: string;
}

export interface IdentityContext {
  service: ServiceContext<IdentityConfig, Tables>;
  database: Database<Tables>;
  db: IdentityDb;
  config: IdentityConfig;
  sharedDomain: string;
  /** Public base URL of this service, without a trailing slash. */
  identityUrl: string;
  ownOrigin: string;
  /** Which redirect targets lead to XV (redirects.ts). */
  redirectPolicy: RedirectPolicy;
  sessions: SessionStore;
  /** This process's view of the revocation epoch; `read()` it after committing a bump. */
  revocations: RevocationEpoch;
  limiters: IdentityLimiters;
  /** Waits after failed password and second-factor sign-ins (sign-in/throttle.ts). */
  signIn: SignInThrottle;
  /** "Session, or service token with scope X for that organization", checked against this database. */
  guard: AuthGuard;
  /** Parts that hold something a membership vouched for (credentials) listen here. */
  onMembershipChanged(listener: (change: MembershipChanged) => Promise<void>): void;
  membershipChanged(change: MembershipChanged): Promise<void>;
  /** Sends e-mail (SMTP, or the development outbox). */
  mailer: Mailer;
  /** Seals secrets stored at rest (issuer keys, TOTP secrets). */
  kek: KeyEncryptionKey;
  /** Who may add or remove an authenticator (mfa/authenticator-changes.ts). */
  authenticatorChanges: ChangePolicy;
  /** The bundled browser code and stylesheets of `src/client/`, served under `/assets/`. */
  assets: ClientAssets;
  /** The session of the request's `xv_session` cookie, or null. */
  currentSession(c: Context): Promise<SessionRecord | null>;
  /** Same, but a request without a session is answered 401. */
  requireSession(c: Context): Promise<SessionRecord>;
}

/** The domain objects `setup` builds before the context. */
export interface IdentityParts {
  sessions: SessionStore;
  revocations: RevocationEpoch;
  limiters: IdentityLimiters;
  signIn: SignInThrottle;
  kek: KeyEncryptionKey;
  mailer: Mailer;
}

export async function createIdentityContext(
  app: App,
  service: ServiceContext<IdentityConfig, Tables>,
  parts: IdentityParts,
): Promise<IdentityContext> {
  const { settings, config, database } = service;
  const { sessions, revocations, limiters, signIn, kek, mailer } = parts;
  const db = database.kysely;
  const currentSession = (c: Context) => sessions.resolve(getCookie(c, SESSION_COOKIE));
  const identityUrl = settings.services.identity.url;
  const ownOrigin = new URL(identityUrl).origin;
  const guard = new AuthGuard(
    { sessionOf: async (c) => (await currentSession(c))?.view ?? null },
    { verify: (token) => verifyServiceToken(db, token) },
    { realmOf: async (orgId) => (await findOrganization(db, orgId))?.realm_id ?? null },
  );
  const membershipListeners: ((change: MembershipChanged) => Promise<void>)[] = [];
  return {
    service,
    database,
    db,
    config,
    sharedDomain: settings.sharedDomain,
    identityUrl,
    ownOrigin,
    redirectPolicy: {
      ownOrigin,
      allowedOrigins: serviceOrigins(settings.services),
      sharedDomain: settings.sharedDomain,
    },
    sessions,
    revocations,
    limiters,
    signIn,
    guard,
    kek,
    mailer,
    authenticatorChanges: { db, limiter: limiters.account, ownOrigin },
    assets: await registerClientAssets(app, import.meta.url),
    onMembershipChanged: (listener) => void membershipListeners.push(listener),
    async membershipChanged(change) {
      sessions.forgetUser(change.userId);
      await revocations.read();
      for (const listener of membershipListeners) await listener(change);
    },
    currentSession,
    async requireSession(c) {
      const session = await currentSession(c);
      if (!session) throw platformErrors.unauthenticated('Sign in first.');
      return session;
    },
  };
}
