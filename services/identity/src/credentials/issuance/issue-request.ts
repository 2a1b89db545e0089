/**
 * @module credentials/issuance/issue-request
 * The one path of every issuance through the API or the account page: the
 * request is checked, then the caller (a person or a service client) is
 * authorized, then the subject is read fresh and the credential issued.
 */
import type { Actor } from '@xv/platform';
import type { AccountDirectory } from '../accounts.js';
import { credentialErrors } from '../errors.js';
import { type CredentialType, isCredentialType } from '../types.js';
import type { CredentialService, IssuedCredential } from './issuer.js';
import { checkAttestationClaims, credentialSubject } from './subjects.js';

export interface IssueInput {
  type: string;
  org_id?: string | undefined;
  claims?: Record<string, unknown> | undefined;
}

/** Authorizes the caller for `did:issue` (on the organization, when one is named). */
export type AuthorizeIssuer = (orgId: string | undefined) => Promise<Actor>;

/** Issues for the caller after checking they may. */
export async function issueFor(
  deps: { accounts: AccountDirectory; baseUrl: string; issuer: CredentialService },
  input: IssueInput,
  authorize: AuthorizeIssuer,
): Promise<IssuedCredential> {
  if (!isCredentialType(input.type)) throw credentialErrors.unknown_type();
  const type: CredentialType = input.type;
  if (input.claims !== undefined && type !== 'OrganizationAttestation')
    throw credentialErrors.claims_not_allowed();
  if (type === 'OrganizationAttestation' && !input.org_id) throw credentialErrors.org_required();
  const claims = input.claims ? checkAttestationClaims(input.claims) : undefined;
  const actor = await authorize(input.org_id);
  let userId: string | null = null;
  let orgId: string | null = input.org_id ?? null;
  if (actor.kind === 'service') {
    if (type !== 'OrganizationAttestation') throw credentialErrors.service_client_not_allowed();
  } else {
    userId = actor.session.user.id;
    if (type === 'MembershipCredential') orgId = actor.orgId ?? null;
    if (type === 'MembershipCredential' && !orgId) throw credentialErrors.org_required();
    if (type === 'OrganizationAttestation' && actor.membership?.role !== 'admin')
      throw credentialErrors.admin_required();
  }
  const subject = await credentialSubject(deps.accounts, deps.baseUrl, {
    realmId: actor.realmId,
    type,
    userId: type === 'OrganizationAttestation' ? null : userId,
    orgId: type === 'IdentityCredential' ? null : orgId,
    claims,
  });
  return deps.issuer.issue({
    realmId: actor.realmId,
    type,
    ...subject,
    issuedBy: actor.kind === 'service' ? actor.client.id : actor.session.user.id,
    channel: actor.kind === 'service' ? 'service' : 'api',
  });
}
