/**
 * @module http/administered
 * The organization an administrator acts on in an admin API: the one the request
 * names (they must hold `permission` there), else their active one.
 */
import { guardErrors } from '@xv/platform';
import { activeMembership } from '@xv/platform/http';
import type { Context } from 'hono';
import { errors } from '../errors.js';
import type { SessionRecord } from '../sessions/store.js';

export function administeredOrg(
  c: Context,
  session: SessionRecord,
  orgId: string | undefined,
  permission: string,
): string {
  const membership = orgId
    ? session.view.memberships.find((m) => m.org_id === orgId)
    : activeMembership(session.view, c);
  if (!membership) throw orgId ? guardErrors.not_a_member() : errors.no_active_organization();
  if (!membership.permissions.includes(permission)) throw errors.admin_required();
  return membership.org_id;
}
