/**
 * @module credentials/issuance/subjects
 * What a credential says about its subject, read fresh from the accounts at
 * issuance: a user's e-mail and name, a membership's organization and role, an
 * organization's public facts (plus the claims its admin or service adds).
 */
import { guardErrors } from '@xv/platform';
import { organizationDid, userDid } from '../../accounts/dids.js';
import type { AccountDirectory } from '../accounts.js';
import { credentialErrors } from '../errors.js';
import type { JsonObject } from '../sd-jwt/jws.js';
import type { CredentialType } from '../types.js';

export interface SubjectQuery {
  realmId: string;
  type: CredentialType;
  userId: string | null;
  orgId: string | null;
  /** Extra claims of an OrganizationAttestation. */
  claims?: JsonObject | undefined;
}

export interface CredentialSubject {
  subject: string;
  userId: string | null;
  orgId: string | null;
  claims: JsonObject;
}

export async function credentialSubject(
  accounts: AccountDirectory,
  identityUrl: string,
  query: SubjectQuery,
): Promise<CredentialSubject> {
  const { realmId, type } = query;
  if (type === 'OrganizationAttestation') {
    const org = query.orgId ? await accounts.organization(query.orgId) : undefined;
    if (!org || org.realm_id !== realmId) throw credentialErrors.org_not_found();
    return {
      subject: organizationDid(identityUrl, org.id),
      userId: null,
      orgId: org.id,
      claims: {
        org_id: org.id,
        name: org.name,
        realm: org.realm_id,
        verified: org.verified === 1,
        ...(org.verified_at !== null ? { verified_at: new Date(Number(org.verified_at)).toISOString() } : {}),
        ...(query.claims && Object.keys(query.claims).length > 0 ? { claims: query.claims } : {}),
      },
    };
  }
  const user = query.userId ? await accounts.user(query.userId) : undefined;
  if (!user || user.realm_id !== realmId) throw credentialErrors.user_not_found();
  const subject = userDid(identityUrl, user.id);
  if (type === 'IdentityCredential')
    return { subject, userId: user.id, orgId: null, claims: { email: user.email, name: user.name } };
  const membership = query.orgId ? await accounts.membership(query.orgId, user.id) : undefined;
  const org = membership ? await accounts.organization(membership.org_id) : undefined;
  if (!membership || !org) throw guardErrors.not_a_member();
  return {
    subject,
    userId: user.id,
    orgId: org.id,
    claims: {
      org_id: org.id,
      org_name: org.name,
      org_did: organizationDid(identityUrl, org.id),
      role: membership.role,
    },
  };
}

// Starting with a letter keeps out `_sd`, `_sd_alg` and `...`.
const CLAIM_NAME = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** The extra claims of an OrganizationAttestation, checked: small, plainly named, names starting with a letter. */
export function checkAttestationClaims(claims: Record<string, unknown>): JsonObject {
  const names = Object.keys(claims);
  const ok =
    names.length <= 32 &&
    names.every((n) => CLAIM_NAME.test(n)) &&
    Buffer.byteLength(JSON.stringify(claims)) <= 8192;
  if (!ok) throw credentialErrors.invalid_claims();
  return claims;
}

/**
 * The subject of a credential a wallet redeems, checked again now: the person is
 * still a member (and, for an OrganizationAttestation, still an admin).
 */
export async function walletSubject(
  accounts: AccountDirectory,
  identityUrl: string,
  type: CredentialType,
  grant: { realm_id: string; user_id: string; org_id: string | null },
): Promise<CredentialSubject> {
  if (type === 'OrganizationAttestation') {
    const membership = grant.org_id ? await accounts.membership(grant.org_id, grant.user_id) : undefined;
    if (membership?.role !== 'admin') throw credentialErrors.admin_required();
  }
  return credentialSubject(accounts, identityUrl, {
    realmId: grant.realm_id,
    type,
    userId: type === 'OrganizationAttestation' ? null : grant.user_id,
    orgId: type === 'IdentityCredential' ? null : grant.org_id,
  });
}
