/**
 * @module credentials/register
 * The one entry point of verifiable credentials in the identity service: builds
 * the issuer and registers the credential, DID, wallet and account-page routes.
 */
import type { App } from '@xv/platform/http';
import type { IdentityContext } from '../context.js';
import { registerDidRoutes } from '../did/routes.js';
import { registerWalletRoutes } from '../oid4vci/routes.js';
import { createCredentialsContext } from './context.js';
import { registerCredentialsPage } from './page.js';
import { registerCredentialApiRoutes } from './routes.js';
import type { CredentialSettings } from './settings.js';

export async function registerCredentialRoutes(
  app: App,
  identity: IdentityContext,
  settings: CredentialSettings,
) {
  const ctx = await createCredentialsContext(identity, settings);
  registerDidRoutes(app, ctx);
  registerCredentialApiRoutes(app, ctx);
  await registerWalletRoutes(app, ctx);
  registerCredentialsPage(app, ctx);
  return ctx;
}
