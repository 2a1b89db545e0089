/**
 * @module service
 * The identity service: its settings, migrations and routes. Each feature folder
 * registers its own routes on the app with the shared identity context.
 */
import { defineService } from '@xv/platform/service';
import { registerAuthRoutes } from './auth/routes.js';
import { createIdentityContext } from './context.js';
import { credentialSettings } from './credentials/index.js';
import { registerCredentialRoutes } from './http/credentials/register.js';
import { registerMfaRoutes } from './mfa/routes.js';
import { migrations } from './migrations/index.js';
import { registerOrganizationRoutes } from './orgs/routes.js';
import { registerPageRoutes } from './pages/routes.js';
import { registerPasskeyRoutes } from './passkeys/routes.js';
import { registerRevocationRoutes } from './revocations/routes.js';
import { registerServiceClientRoutes } from './service-clients/routes.js';
import { registerSessionRoutes } from './sessions/routes.js';
import { identitySettings } from './settings.js';

export const identityService = defineService()({
  name: 'identity',
  description:
    'Multi-realm customer identity: the shared sign-in session, 2FA, step-up, organizations, service clients and verifiable credentials.',
  settings: { ...identitySettings, ...credentialSettings },
  migrations,
  async setup(app, ctx) {
    const identity = await createIdentityContext(ctx);
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
