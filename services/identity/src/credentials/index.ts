/**
 * @module credentials
 * Verifiable credentials of the identity service, as one module: SD-JWT VC
 * issuance and verification, the status list, the issuer keys, did:web documents
 * and OpenID4VCI. This file is its only entry: the rest of the service (and the
 * operator's `xv credentials`) imports from here, never from the folders below.
 */
export type { AccountDirectory, AccountMembership, AccountOrganization, AccountUser } from './accounts.js';
export {
  type CredentialDependencies,
  type Credentials,
  createCredentials,
  type MembershipChange,
} from './create.js';
export { credentialErrors } from './errors.js';
export type { AuthorizeIssuer, IssueInput } from './issuance/issue-request.js';
export type { CredentialSummary, IssuedCredential } from './issuance/issuer.js';
export type { ClaimRow, KeptCredential } from './issuance/kept.js';
export * as credentialKeys from './keys/admin.js';
export { authorizationServerMetadata, credentialIssuerMetadata } from './oid4vci/metadata.js';
export { invalidRequest, invalidToken, OAuthError } from './oid4vci/oauth-error.js';
export type { OfferHolder, OfferInput } from './oid4vci/offers.js';
export type { CredentialOfferResult, WalletToken } from './oid4vci/wallet.js';
export { isJsonObject, type JsonObject } from './sd-jwt/jws.js';
export { type CredentialSettings, credentialSettings } from './settings.js';
export type * from './tables.js';
export {
  CREDENTIAL_CATALOGUE,
  CREDENTIAL_TYPES,
  type CredentialType,
  isCredentialType,
  typeMetadata,
} from './types.js';
