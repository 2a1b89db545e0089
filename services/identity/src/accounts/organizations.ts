/**
 * @module accounts/organizations
 * What an organization's administrators and the public may do with it: its public
 * record, its settings, adding members and changing or ending their membership.
 * The last administrator can be neither demoted nor removed.
 */
import type { Database } from '@xv/platform';
import type { IdentityDb, Tables } from '../db.js';
import { errors } from '../errors.js';
import { organizationDid, serviceDid } from './dids.js';
import {
  addMembership,
  changeMembership,
  DEFAULT_REALM,
  findMembership,
  findOrganization,
  findOrganizationBySlug,
  findUserByEmail,
  findUserById,
  type Organization,
  setPublicAssistant,
  setRequire2fa,
} from './repository.js';
import { permissionsOf, type Role } from './roles.js';

/** The record anyone may read about an organization. */
export function publicRecord(identityUrl: string, org: Organization) {
  return {
    org_id: org.id,
    name: org.name,
    slug: org.slug,
    did: serviceDid(identityUrl),
    org_did: organizationDid(identityUrl, org.id),
    verified: org.verified === 1,
    verified_at: org.verified_at === null ? null : new Date(org.verified_at).toISOString(),
    realm: org.realm_id,
    public_assistant: org.public_assistant === 1,
  };
}

/** The organization with exactly one of `org_id` or `slug` (a slug within `realm`, default `default`). */
export async function resolveOrganization(
  db: IdentityDb,
  query: { org_id?: string | undefined; slug?: string | undefined; realm?: string | undefined },
): Promise<Organization> {
  const { org_id, slug, realm } = query;
  if (org_id === undefined) {
    if (slug === undefined) throw errors.org_query_required();
    const org = await findOrganizationBySlug(db, realm ?? DEFAULT_REALM, slug);
    if (!org || (realm && org.realm_id !== realm)) throw errors.org_not_found();
    return org;
  }
  if (slug !== undefined) throw errors.org_query_required();
  // An empty `org_id=` is an id (found nowhere), not a lookup by an absent slug.
  const org = await findOrganization(db, org_id);
  if (!org || (realm && org.realm_id !== realm)) throw errors.org_not_found();
  return org;
}

export interface OrganizationSettings {
  public_assistant?: boolean | undefined;
  require_2fa?: boolean | undefined;
}

/** Saves the settings given and answers all of them as they now are. */
export async function updateOrganizationSettings(
  db: IdentityDb,
  orgId: string,
  change: OrganizationSettings,
) {
  if (change.public_assistant !== undefined) await setPublicAssistant(db, orgId, change.public_assistant);
  if (change.require_2fa !== undefined) await setRequire2fa(db, orgId, change.require_2fa);
  const org = await findOrganization(db, orgId);
  if (!org) throw errors.org_not_found();
  return { public_assistant: org.public_assistant === 1, require_2fa: org.require_2fa === 1 };
}

/** Adds the realm's user with that e-mail to the organization; answers their user id. */
export async function addMemberByEmail(
  db: IdentityDb,
  input: { orgId: string; realmId: string; email: string; role: Role },
): Promise<string> {
  const org = await findOrganization(db, input.orgId);
  const user = await findUserByEmail(db, input.realmId, input.email);
  if (!org || !user) throw errors.user_not_found();
  if (!(await addMembership(db, org, user.id, input.role))) throw errors.already_member();
  return user.id;
}

/** Changes (or with `role` null ends) a membership; the revocation epoch moves with it. */
export async function changeMember(
  database: Database<Tables>,
  orgId: string,
  userId: string,
  role: Role | null,
): Promise<void> {
  const outcome = await changeMembership(database, orgId, userId, role);
  if (outcome === 'not_found') throw errors.member_not_found();
  if (outcome === 'last_admin') throw errors.last_admin();
}

/** Whether a user is a member of an organization, with what role, and whether the user may still sign in. */
export async function memberStanding(db: IdentityDb, userId: string, orgId: string) {
  const user = await findUserById(db, userId);
  const membership = user ? await findMembership(db, orgId, userId) : undefined;
  return {
    member: membership !== undefined,
    role: membership?.role ?? null,
    permissions: membership ? permissionsOf(membership.role) : [],
    active: user !== undefined && user.disabled_at === null,
  };
}
