/**
 * @module auth/principals
 * Who can call an XV service: a signed-in person (their identity session and
 * memberships) or a service client holding a bearer token. Plain data, so domain
 * code can take an `Actor` without knowing about HTTP.
 */

export type AssuranceLevel = 'AAL1' | 'AAL2' | 'AAL3';

export interface SessionMembership {
  org_id: string;
  org_name: string;
  role: string;
  permissions: string[];
}

export interface IdentitySession {
  authenticated: true;
  realmId: string;
  user: { id: string; email: string; name: string; avatar_color: string };
  memberships: SessionMembership[];
  amr: string[];
  aal: AssuranceLevel;
}

export interface ServiceClientInfo {
  id: string;
  name: string;
  realm_id: string;
  /** null: the client covers every organization of its realm. */
  org_id: string | null;
  scopes: string[];
}

export type Actor =
  | {
      kind: 'user';
      session: IdentitySession;
      /** The membership in the organization asked for, else the active one. */
      membership: SessionMembership | undefined;
      orgId: string | undefined;
      realmId: string;
    }
  | { kind: 'service'; client: ServiceClientInfo; orgId: string | undefined; realmId: string };
