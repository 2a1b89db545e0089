/**
 * @module credentials/context
 * Everything the credential, DID and wallet routes share, built once at start-up:
 * the issuer's DID and keys, status lists, the credential service, the verifier
 * and the OpenID4VCI flow. Also sweeps expired wallet state and replay records.
 */
import type { Kysely } from 'kysely';
import { serviceDid } from '../accounts/dids.js';
import type { IdentityContext } from '../context.js';
import { WalletIssuance } from '../oid4vci/wallet.js';
import { CredentialService } from './credentials.js';
import { IssuerKeyring } from './keys/issuer-keys.js';
import type { CredentialSettings } from './settings.js';
import { StatusLists } from './status-list.js';
import type { CredentialTables } from './tables.js';
import { CredentialVerifier } from './verifier.js';

export interface CredentialsContext {
  identity: IdentityContext;
  db: Kysely<CredentialTables>;
  /** The service's DID, `did:web:<identity host>`. */
  did: string;
  /** The identity base URL: the credential issuer identifier of OpenID4VCI. */
  baseUrl: string;
  keyring: IssuerKeyring;
  statusLists: StatusLists;
  credentials: CredentialService;
  verifier: CredentialVerifier;
  wallet: WalletIssuance;
}

export async function createCredentialsContext(
  identity: IdentityContext,
  settings: CredentialSettings,
): Promise<CredentialsContext> {
  const db = identity.database.kysely as unknown as Kysely<CredentialTables>;
  const baseUrl = identity.identityUrl;
  const did = serviceDid(baseUrl);
  const keyring = new IssuerKeyring(db, identity.kek);
  await keyring.start();
  const statusLists = new StatusLists(db, keyring, did, baseUrl);
  const credentials = new CredentialService(db, keyring, statusLists, {
    did,
    baseUrl,
    credentialDays: settings.credentialDays,
  });
  const verifier = new CredentialVerifier(db, keyring, statusLists, did);
  const wallet = new WalletIssuance(db, baseUrl, settings.offerSeconds);
  // A membership credential states a role: it stops being true when the role changes or ends.
  identity.onMembershipChanged(async ({ orgId, userId, byUserId }) => {
    await credentials.revokeMembershipCredentials(orgId, userId, byUserId);
  });

  const sweep = setInterval(() => {
    void wallet.pruneExpired().catch(() => {});
    void db
      .deleteFrom('kb_presentations')
      .where('expires_at', '<', Date.now())
      .execute()
      .catch(() => {});
  }, 10 * 60_000);
  sweep.unref();
  identity.service.onClose(() => clearInterval(sweep));

  return { identity, db, did, baseUrl, keyring, statusLists, credentials, verifier, wallet };
}
