/**
 * @module auth/memberships
 * "Is this person still a member of that organization, and an active user?", asked
 * of identity's internal `GET /api/internal/memberships` with the platform's internal
 * credential. Services ask it before honouring a credential a member left behind
 * (a knowledge-base token). Answers are kept a few seconds, dropped as soon as
 * identity reports a revocation, and not used while the revocation watch is down.
 */
import { platformErrors } from '../errors.js';
import type { RevocationWatch } from './revocations.js';
import { TtlCache } from './ttl-cache.js';

export interface MembershipStatus {
  /** The user belongs to the organization. */
  member: boolean;
  role: string | null;
  permissions: string[];
  /** The user exists and is not disabled. */
  active: boolean;
}

export interface MembershipSource {
  membershipOf(userId: string, orgId: string): Promise<MembershipStatus>;
}

export interface IdentityMembershipsOptions {
  identityUrl: string;
  internalToken: string;
  revocations?: RevocationWatch | undefined;
  cacheTtlMs?: number;
  timeoutMs?: number;
}

export class IdentityMemberships implements MembershipSource {
  private readonly cache: TtlCache<MembershipStatus>;

  constructor(private readonly options: IdentityMembershipsOptions) {
    this.cache = new TtlCache(options.cacheTtlMs ?? 3000, { revocations: options.revocations });
  }

  membershipOf(userId: string, orgId: string): Promise<MembershipStatus> {
    return this.cache.get(JSON.stringify([userId, orgId]), () => this.ask(userId, orgId));
  }

  private async ask(userId: string, orgId: string): Promise<MembershipStatus> {
    const query = new URLSearchParams({ user_id: userId, org_id: orgId });
    let response: Response;
    try {
      response = await fetch(`${this.options.identityUrl}/api/internal/memberships?${query}`, {
        headers: { accept: 'application/json', authorization: `Bearer ${this.options.internalToken}` },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
    } catch {
      throw platformErrors.unavailable('The identity service cannot be reached.');
    }
    if (!response.ok)
      throw platformErrors.unavailable('The identity service did not answer the membership check.');
    return (await response.json()) as MembershipStatus;
  }
}
