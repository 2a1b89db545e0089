/**
 * @module credentials/types
 * The three credential types: their `vct`, the type metadata published at
 * `/vc/<type>`, and which of their claims a holder may disclose selectively.
 */

/** The top-level claims a credential never discloses selectively. */
export const CLEAR_CLAIMS = ['iss', 'sub', 'vct', 'vct#integrity', 'cnf', 'status', 'iat', 'exp', 'nbf'];

export const CREDENTIAL_TYPES = [
  'IdentityCredential',
  'MembershipCredential',
  'OrganizationAttestation',
] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export function isCredentialType(value: unknown): value is CredentialType {
  return typeof value === 'string' && (CREDENTIAL_TYPES as readonly string[]).includes(value);
}

export interface ClaimMetadata {
  name: string;
  required?: boolean;
}

export interface CredentialTypeInfo {
  name: string;
  description: string;
  claims: Record<string, ClaimMetadata>;
  /** Claims the holder may leave out of a presentation. */
  disclosable: readonly string[];
  /** Object claims whose own properties are disclosable one by one (only an attestation's `claims`). */
  nested: readonly 'claims'[];
}

export const CREDENTIAL_CATALOGUE: Record<CredentialType, CredentialTypeInfo> = {
  IdentityCredential: {
    name: 'Identity',
    description: 'The holder is a user of this identity service with this e-mail address and name.',
    claims: {
      email: { name: 'E-mail address', required: true },
      name: { name: 'Name', required: true },
    },
    disclosable: ['email', 'name'],
    nested: [],
  },
  MembershipCredential: {
    name: 'Organization membership',
    description: 'The holder is a member of an organization, with a role.',
    claims: {
      org_id: { name: 'Organization id', required: true },
      org_name: { name: 'Organization', required: true },
      org_did: { name: 'Organization DID', required: true },
      role: { name: 'Role', required: true },
    },
    disclosable: ['org_id', 'org_name', 'org_did', 'role'],
    nested: [],
  },
  OrganizationAttestation: {
    name: 'Organization attestation',
    description:
      'Facts about an organization, attested by the identity service, with claims added by the organization.',
    claims: {
      org_id: { name: 'Organization id', required: true },
      name: { name: 'Organization name', required: true },
      realm: { name: 'Realm', required: true },
      verified: { name: 'KYC verified', required: true },
      verified_at: { name: 'Verified at' },
      claims: { name: 'Attested claims' },
    },
    // The organization's own identity stays in the clear; its verification status and extra claims can be withheld.
    disclosable: ['verified', 'verified_at', 'claims'],
    nested: ['claims'],
  },
};

export const vctOf = (baseUrl: string, type: CredentialType) => `${baseUrl}/vc/${type}`;

/** The type metadata document of `GET /vc/<type>`. */
export function typeMetadata(baseUrl: string, type: CredentialType) {
  const { name, description, claims } = CREDENTIAL_CATALOGUE[type];
  return { vct: vctOf(baseUrl, type), name, description, claims };
}
