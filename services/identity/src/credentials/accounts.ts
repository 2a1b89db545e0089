/**
 * @module credentials/accounts
 * What credentials read from the accounts of the identity service: users,
 * organizations and memberships. The service hands in a directory over its own
 * tables, so this module never depends on them (they include this module's).
 */

export interface AccountUser {
  id: string;
  realm_id: string;
  email: string;
  name: string;
}

export interface AccountOrganization {
  id: string;
  realm_id: string;
  name: string;
  verified: number;
  verified_at: number | null;
}

export interface AccountMembership {
  org_id: string;
  role: string;
}

export interface AccountDirectory {
  user(userId: string): Promise<AccountUser | undefined>;
  organization(orgId: string): Promise<AccountOrganization | undefined>;
  membership(orgId: string, userId: string): Promise<AccountMembership | undefined>;
}
