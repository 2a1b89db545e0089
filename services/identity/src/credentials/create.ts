/**
 * @module credentials/create
 * Builds the credential module once at start-up: the issuer's DID and keys,
 * status lists, issuance, the verifier, did:web documents and the OpenID4VCI
 * flow. Also revokes membership credentials whose role changed, and sweeps
 * expired wallet state and replay records.
 */
import type { KeyEncryptionKey } from '@xv/platform';
import type { Kysely } from 'kysely';
import { serviceDid } from '../accounts/dids.js';
import type { AccountDirectory } from './accounts.js';
import { DidDocuments } from './did/resolver.js';
import { type AuthorizeIssuer, type IssueInput, issueFor } from './issuance/issue-request.js';
import { CredentialService, type IssuedCredential, summarize } from './issuance/issuer.js';
import { KeptCredentials } from './issuance/kept.js';
import { IssuerKeyring } from './keys/issuer-keys.js';
import { type OfferHolder, type OfferInput, offerFor } from './oid4vci/offers.js';
import { credentialRequest, tokenRequest } from './oid4vci/requests.js';
import { type CredentialOfferResult, WalletIssuance } from './oid4vci/wallet.js';
import type { CredentialSettings } from './settings.js';
import { StatusLists } from './status/status-list.js';
import type { CredentialTables } from './tables.js';
import { CredentialVerifier } from './verification/verifier.js';

/** A member's role changed or their membership ended. */
export interface MembershipChange {
  orgId: string;
  userId: string;
  byUserId: string;
}

export interface CredentialDependencies {
  /** The identity database; it holds the credential tables among its own. */
  database: Kysely<CredentialTables>;
  /** Seals the issuer's private keys at rest. */
  kek: KeyEncryptionKey;
  /** The identity base URL: the did:web host and the OpenID4VCI credential issuer. */
  baseUrl: string;
  settings: CredentialSettings;
  accounts: AccountDirectory;
  onMembershipChanged(listener: (change: MembershipChange) => Promise<void>): void;
  onClose(close: () => void): void;
}

export type Credentials = Awaited<ReturnType<typeof createCredentials>>;

export async function createCredentials(deps: CredentialDependencies) {
  const { database: db, baseUrl, accounts } = deps;
  const did = serviceDid(baseUrl);
  const keyring = new IssuerKeyring(db, deps.kek);
  await keyring.start();
  const statusLists = new StatusLists(db, keyring, did, baseUrl);
  const issuer = new CredentialService(db, keyring, statusLists, {
    did,
    baseUrl,
    credentialDays: deps.settings.credentialDays,
  });
  const verifier = new CredentialVerifier(db, keyring, statusLists, did);
  const wallet = new WalletIssuance(db, baseUrl, deps.settings.offerSeconds, deps.kek);
  // A membership credential states a role: it stops being true when the role changes or ends.
  deps.onMembershipChanged(async ({ orgId, userId, byUserId }) => {
    await issuer.revokeMembershipCredentials(orgId, userId, byUserId);
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
  deps.onClose(() => clearInterval(sweep));

  return {
    /** The service's DID, `did:web:<identity host>`. */
    did,
    baseUrl,
    keyring,
    statusLists,
    issuer,
    verifier,
    wallet,
    /** Credentials issued from the account page, readable again by their owner. */
    kept: new KeptCredentials(db, deps.kek, summarize),
    dids: new DidDocuments(did, baseUrl, keyring, accounts),
    /** Issues through the API or the account page: checks the request, authorizes, issues. */
    issue: (input: IssueInput, authorize: AuthorizeIssuer): Promise<IssuedCredential> =>
      issueFor({ accounts, baseUrl, issuer }, input, authorize),
    /** A wallet offer (pre-authorized code) for the signed-in person. */
    offer: (holder: OfferHolder, input: OfferInput): Promise<CredentialOfferResult> =>
      offerFor(wallet, holder, input),
    /** OpenID4VCI token endpoint. */
    walletToken: (form: Record<string, unknown>) => tokenRequest(wallet, form),
    /** OpenID4VCI credential endpoint, for a live access token. */
    walletCredential: (token: Parameters<typeof credentialRequest>[1], request: Record<string, unknown>) =>
      credentialRequest({ accounts, baseUrl, issuer, wallet }, token, request),
  };
}
