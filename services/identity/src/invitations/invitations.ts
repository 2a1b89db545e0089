/**
 * @module invitations/invitations
 * Invitations to join an organization. The link carries a 256-bit random token; only its SHA-256 is stored.
 * A token is good once, for 7 days, for the organization it was made for, and only for the account with the
 * address it was sent to: a forwarded or leaked link lets nobody else in. Resending makes a new token (the old
 * one stops working); revoking ends it.
 */
import { hashToken, newId, newSecretToken } from '@xv/platform';
import {
  addMembership,
  findMembership,
  findOrganization,
  findUserByEmail,
  normalizeEmail,
  type Organization,
  type User,
} from '../accounts/repository.js';
import type { Role } from '../accounts/roles.js';
import type { IdentityDb, InvitationsTable } from '../db.js';
import { errors } from '../errors.js';

export const INVITATION_LIFETIME_MS = 7 * 24 * 3600 * 1000;
const TOKEN_PREFIX = 'xvi';

export type Invitation = InvitationsTable;

export interface PendingInvitation {
  id: string;
  email: string;
  role: string;
  created_at: number;
  expires_at: number;
}

function pendingView(row: Invitation): PendingInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    created_at: Number(row.created_at),
    expires_at: Number(row.expires_at),
  };
}

/** A new invitation and the only copy of its token; a pending one to the same address is replaced. */
export async function createInvitation(
  db: IdentityDb,
  input: { org: Organization; email: string; role: Role; invitedBy: string },
  now = Date.now(),
): Promise<{ invitation: PendingInvitation; token: string }> {
  const email = normalizeEmail(input.email);
  const existing = await findUserByEmail(db, input.org.realm_id, email);
  if (existing && (await findMembership(db, input.org.id, existing.id))) throw errors.already_member();
  await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('org_id', '=', input.org.id)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
  const token = newSecretToken(TOKEN_PREFIX);
  const row: Invitation = {
    id: newId('inv'),
    org_id: input.org.id,
    realm_id: input.org.realm_id,
    email,
    role: input.role,
    token_hash: hashToken(token),
    invited_by: input.invitedBy,
    created_at: now,
    expires_at: now + INVITATION_LIFETIME_MS,
    accepted_at: null,
    accepted_by: null,
    revoked_at: null,
  };
  await db.insertInto('invitations').values(row).execute();
  return { invitation: pendingView(row), token };
}

/** The organization's invitations that are neither used, revoked nor expired, newest first. */
export async function pendingInvitations(db: IdentityDb, orgId: string, now = Date.now()) {
  const rows = await db
    .selectFrom('invitations')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map(pendingView);
}

async function pendingOf(db: IdentityDb, orgId: string, id: string) {
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw errors.invitation_not_found();
  return row;
}

/** A new token (and 7 more days) for a pending invitation of the organization; the old token dies. */
export async function renewInvitation(db: IdentityDb, orgId: string, id: string, now = Date.now()) {
  const row = await pendingOf(db, orgId, id);
  const token = newSecretToken(TOKEN_PREFIX);
  const expiresAt = now + INVITATION_LIFETIME_MS;
  await db
    .updateTable('invitations')
    .set({ token_hash: hashToken(token), expires_at: expiresAt })
    .where('id', '=', row.id)
    .execute();
  return { invitation: pendingView({ ...row, expires_at: expiresAt }), token };
}

export async function revokeInvitation(db: IdentityDb, orgId: string, id: string, now = Date.now()) {
  const row = await pendingOf(db, orgId, id);
  await db.updateTable('invitations').set({ revoked_at: now }).where('id', '=', row.id).execute();
}

/** The pending, unexpired invitation of a link's token with its organization, or undefined. */
export async function openInvitation(db: IdentityDb, token: string | undefined, now = Date.now()) {
  if (!token || token.length > 200 || !token.startsWith(`${TOKEN_PREFIX}_`)) return undefined;
  const row = await db
    .selectFrom('invitations')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const org = await findOrganization(db, row.org_id);
  return org ? { invitation: row, org } : undefined;
}

/** The open invitation an `/invitations/<token>` path leads to, or undefined. */
export async function invitationOfPath(db: IdentityDb, path: string | null, now = Date.now()) {
  const match = path ? /^\/invitations\/([A-Za-z0-9_-]{1,200})$/.exec(path) : null;
  return match ? (await openInvitation(db, match[1], now))?.invitation : undefined;
}

/**
 * The signed-in `user` takes up the invitation of `token`: the token is spent (one conditional update, so two
 * tabs cannot both use it) and the user joins its organization with its role.
 */
export async function acceptInvitation(
  db: IdentityDb,
  token: string | undefined,
  user: User,
  now = Date.now(),
) {
  const opened = await openInvitation(db, token, now);
  if (!opened) throw errors.invitation_not_found();
  const { invitation, org } = opened;
  if (invitation.realm_id !== user.realm_id || invitation.email !== normalizeEmail(user.email))
    throw errors.invitation_other_account();
  const claimed = await db
    .updateTable('invitations')
    .set({ accepted_at: now, accepted_by: user.id })
    .where('id', '=', invitation.id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw errors.invitation_not_found();
  await addMembership(db, org, user.id, invitation.role as Role);
  return { orgId: org.id, orgName: org.name, role: invitation.role };
}
