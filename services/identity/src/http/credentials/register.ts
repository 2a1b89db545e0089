/**
 * @module http/credentials/register
 * The one entry point of verifiable credentials in the identity service: builds
 * the credential module over identity's database and accounts, and registers the
 * credential API, DID, wallet (OpenID4VCI) and account-page routes.
 */
import type { App } from '@xv/platform/http';
import { type ClientAssets, registerClientAssets } from '@xv/platform/pages';
import {
  type CredentialSettings,
  type Credentials,
  type CredentialTables,
  createCredentials,
} from '../../credentials/index.js';
import type { IdentityContext } from '../context.js';
import { accountDirectory } from './account-directory.js';
import { registerCredentialApiRoutes } from './api.js';
import { registerDidRoutes } from './did.js';
import { registerCredentialsPage } from './page.js';
import { registerWalletRoutes } from './wallet.js';

/**
 * `assets`: the identity pages' client assets when they are already registered
 * (`/assets/:file` is registered once per app); without them, registers them here.
 */
export async function registerCredentialRoutes(
  app: App,
  identity: IdentityContext,
  settings: CredentialSettings,
  assets?: ClientAssets,
): Promise<Credentials> {
  const { db } = identity;
  const accounts = accountDirectory(db);
  const credentials = await createCredentials({
    // The credential tables live in identity's database beside its own tables.
    database: identity.database.kysely.withTables<CredentialTables>(),
    kek: identity.kek,
    baseUrl: identity.identityUrl,
    settings,
    accounts,
    onMembershipChanged: (listener) => identity.onMembershipChanged(listener),
    onClose: (close) => identity.service.onClose(close),
  });
  const clientAssets = assets ?? (await registerClientAssets(app, import.meta.url));
  registerDidRoutes(app, credentials);
  registerCredentialApiRoutes(app, identity, credentials);
  await registerWalletRoutes(app, identity, credentials);
  registerCredentialsPage(app, identity, credentials, clientAssets);
  return credentials;
}
