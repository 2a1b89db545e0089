/**
 * @module tenancy
 * What a session's tenant opens. A tenant shaped like an organization id
 * (`org_…`) names an organization; anything else is a plain label that opens
 * nothing (no knowledge, no organization's tickets).
 *
 * - A signed-in person's sessions start in their active organization; in the
 *   organizations they belong to their tools act with their own rights, checked
 *   again at every turn.
 * - Anyone (a visitor, a caller without cookies, or a person who is not a member)
 *   may name an organization whose admin published a public assistant, and then
 *   reaches only what that organization made public, while its assistant is on.
 *   Any other organization is refused with 403: `not_a_member` for a signed-in
 *   person, `no_public_assistant` for others (the same answer whether the
 *   organization exists or not).
 */
import { guardErrors, isId, type PublicOrganizations } from '@xv/platform';
import { errors } from '../errors.js';
import { DEFAULT_TENANT, type SessionDefaults } from '../sessions/store.js';
import type { Principal } from './principal.js';

export type TenantAccess =
  /** The person is a member of the organization: their own rights there. */
  | { kind: 'member'; orgId: string; sessionToken: string }
  /** The organization's public assistant: its public documents only. */
  | { kind: 'public'; orgId: string }
  /** A label, or an organization the caller no longer may reach. */
  | { kind: 'none' };

export const namesOrganization = (tenant: string) => isId(tenant, 'org');

/** What a session of `principal` created now starts with. */
export function sessionDefaults(principal: Principal): SessionDefaults {
  const tenant = principal.kind === 'person' ? (principal.active?.org_id ?? DEFAULT_TENANT) : DEFAULT_TENANT;
  return { owner: principal.owner, tenant };
}

/** Refuses (403) a tenant the caller may not name; a label passes. */
export async function checkTenantChoice(
  tenant: string,
  principal: Principal,
  organizations: PublicOrganizations,
): Promise<void> {
  if (!namesOrganization(tenant)) return;
  const member = principal.kind === 'person' && principal.person.memberships.some((m) => m.org_id === tenant);
  if (member || (await organizations.hasPublicAssistant(tenant))) return;
  throw principal.kind === 'person' ? guardErrors.not_a_member() : errors.no_public_assistant();
}

/** What the session's tenant opens for this caller now. */
export async function accessTo(
  tenant: string,
  principal: Principal,
  organizations: PublicOrganizations,
): Promise<TenantAccess> {
  if (!namesOrganization(tenant)) return { kind: 'none' };
  if (principal.kind === 'person' && principal.person.memberships.some((m) => m.org_id === tenant))
    return { kind: 'member', orgId: tenant, sessionToken: principal.sessionToken };
  return (await organizations.hasPublicAssistant(tenant))
    ? { kind: 'public', orgId: tenant }
    : { kind: 'none' };
}
