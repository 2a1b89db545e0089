/**
 * @module service
 * The identity service: its settings, migrations and wiring. `setup` builds the
 * domain objects (key-encryption key, revocation epoch, session store, rate limits),
 * the identity context the routes share, and registers the routes of each API area
 * (`http/`) with it.
 */
import { defineService } from '@xv/platform/service';
import { prepareDummyHash } from './accounts/passwords.js';
import { credentialSettings } from './credentials/index.js';
import type { Tables } from './db.js';
import { registerAccountRoutes } from './http/account.js';
import { registerAuthRoutes } from './http/auth.js';
import { createIdentityContext } from './http/context.js';
import { registerCredentialRoutes } from './http/credentials/register.js';
import { registerInvitationRoutes } from './http/invitations.js';
import { registerMailRoutes } from './http/mail.js';
import { registerMfaRoutes } from './http/mfa.js';
import { registerOidcApiRoutes } from './http/oidc/api.js';
import { registerOidcProviderRoutes } from './http/oidc/provider-routes.js';
import { registerOrganizationRoutes } from './http/organizations.js';
import { registerPageRoutes } from './http/pages/routes.js';
import { registerPasskeyRoutes } from './http/passkeys.js';
import { registerRecoveryRoutes } from './http/recovery.js';
import { registerRevocationRoutes } from './http/revocations.js';
import { registerServiceClientRoutes } from './http/service-clients.js';
import { registerSessionRoutes } from './http/sessions.js';
import { loadIdentityKek } from './kek.js';
import { createMailer } from './mail/mailer.js';
import { sealPlaintextTotpSecrets } from './mfa/totp.js';
import { migrations } from './migrations/index.js';
import { RevocationEpoch } from './revocations/epoch.js';
import { sweepSecurityLog } from './self-service/security-log.js';
import { SessionStore } from './sessions/store.js';
import { identitySettings } from './settings.js';
import { createLimiters, createSignInThrottle } from './sign-in/limiters.js';

export const identityService = defineService<Tables>()({
  name: 'identity',
  description:
    'Multi-realm customer identity: the shared sign-in session, 2FA, step-up, organizations, service clients and verifiable credentials.',
  settings: { ...identitySettings, ...credentialSettings },
  migrations,
  async setup(app, ctx) {
    const { config, database } = ctx;
    const db = database.kysely;
    const kek = loadIdentityKek(config.kek, ctx.settings.dataDir);
    await sealPlaintextTotpSecrets(db, kek);
    await prepareDummyHash();
    const revocations = new RevocationEpoch(db);
    ctx.onClose(() => revocations.close());
    const sessions = new SessionStore(
      db,
      {
        idleMs: config.sessionIdleSeconds * 1000,
        lifetimeMs: config.sessionLifetimeSeconds * 1000,
        cacheMs: config.sessionCacheMs,
      },
      revocations,
    );
    const sweep = setInterval(() => {
      void sessions.sweepExpired().catch(() => {});
      void sweepSecurityLog(db).catch(() => {});
    }, 10 * 60_000);
    sweep.unref();
    ctx.onClose(() => clearInterval(sweep));
    const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom });
    ctx.onClose(() => mailer.close());
    if (mailer.usesOutbox)
      ctx.logger.warn('XV_SMTP_URL is not set: e-mails are kept in the development outbox at /dev/outbox');
    const identity = await createIdentityContext(app, ctx, {
      sessions,
      revocations,
      limiters: await createLimiters(database, config),
      signIn: await createSignInThrottle(database, config, ctx.logger),
      kek,
      mailer,
    });
    registerSessionRoutes(app, identity);
    registerAuthRoutes(app, identity);
    registerMfaRoutes(app, identity);
    registerPasskeyRoutes(app, identity);
    registerOrganizationRoutes(app, identity);
    registerServiceClientRoutes(app, identity);
    registerRevocationRoutes(app, identity);
    registerMailRoutes(app, identity);
    registerInvitationRoutes(app, identity);
    registerAccountRoutes(app, identity);
    registerRecoveryRoutes(app, identity);
    await registerCredentialRoutes(app, identity, ctx.config, identity.assets);
    registerOidcApiRoutes(app, identity);
    await registerOidcProviderRoutes(app, identity);
    registerPageRoutes(app, identity);
  },
});
