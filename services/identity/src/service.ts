/**
 * @module service
 * The identity service: its settings, migrations and wiring. `setup` builds the
 * shared identity context (domain objects, guard, page assets) and registers the
 * routes of each API area (`http/`) with it.
 */
import { defineService } from '@xv/platform/service';
import { registerCredentialRoutes } from './credentials/register.js';
import { credentialSettings } from './credentials/settings.js';
import type { Tables } from './db.js';
import { registerAuthRoutes } from './http/auth.js';
import { createIdentityContext } from './http/context.js';
import { registerMfaRoutes } from './http/mfa.js';
import { registerOrganizationRoutes } from './http/organizations.js';
import { registerPageRoutes } from './http/pages/routes.js';
import { registerPasskeyRoutes } from './http/passkeys.js';
import { registerRevocationRoutes } from './http/revocations.js';
import { registerServiceClientRoutes } from './http/service-clients.js';
import { registerSessionRoutes } from './http/sessions.js';
import { migrations } from './migrations/index.js';
import { identitySettings } from './settings.js';

export const identityService = defineService<Tables>()({
  name: 'identity',
  description:
    'Multi-realm customer identity: the shared sign-in session, 2FA, step-up, organizations, service clients and verifiable credentials.',
  settings: { ...identitySettings, ...credentialSettings },
  migrations,
  async setup(app, ctx) {
    const identity = await createIdentityContext(app, ctx);
    registerSessionRoutes(app, identity);
    registerAuthRoutes(app, identity);
    registerMfaRoutes(app, identity);
    registerPasskeyRoutes(app, identity);
    registerOrganizationRoutes(app, identity);
    registerServiceClientRoutes(app, identity);
    registerRevocationRoutes(app, identity);
    await registerCredentialRoutes(app, identity, ctx.config);
    registerPageRoutes(app, identity);
  },
});
