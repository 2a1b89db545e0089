/**
 * @module accounts/repository
 * Realms, organizations, users and memberships: the look-ups and changes every
 * part of the identity service builds on. No HTTP here; every query names its realm
 * or the user or organization it concerns.
 */
import { randomBytes } from 'node:crypto';
import {
  base32,
  type CompiledStatement,
  compileQuery,
  type Database,
  newId,
  type Param,
  transaction,
} from '@xv/platform';
import type { IdentityDb, OrganizationsTable, Tables, UsersTable } from '../db.js';
import { bumpRevocationEpoch } from '../revocations/epoch.js';
import { permissionsOf, type Role } from './roles.js';

export const DEFAULT_REALM = 'default';

/** What a realm id looks like: a sign-in form naming anything else is refused before any look-up. */
export const REALM_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export type User = UsersTable;
export type Organization = OrganizationsTable;

export interface MembershipView {
  org_id: string;
  org_name: string;
  role: string;
  permissions: string[];
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

// Readable on white and dark backgrounds alike; `client/identity.css` has a rule for each.
const AVATAR_COLORS = [
  '#1d4ed8',
  '#047857',
  '#b45309',
  '#7c3aed',
  '#be123c',
  '#0e7490',
  '#4d7c0f',
  '#c2410c',
];

export function avatarColorFor(seed: string): string {
  let sum = 0;
  for (const ch of seed) sum = (sum * 31 + ch.charCodeAt(0)) >>> 0;
  return AVATAR_COLORS[sum % AVATAR_COLORS.length]!;
}

export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || 'org';
}

export async function findRealm(db: IdentityDb, realmId: string) {
  return db.selectFrom('realms').selectAll().where('id', '=', realmId).executeTakeFirst();
}

export async function createRealm(db: IdentityDb, id: string, name: string) {
  const realm = { id, name, created_at: Date.now() };
  await db.insertInto('realms').values(realm).execute();
  return realm;
}

export async function listRealms(db: IdentityDb) {
  return db.selectFrom('realms').selectAll().orderBy('id').execute();
}

export async function findUserById(db: IdentityDb, userId: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function findUserByEmail(
  db: IdentityDb,
  realmId: string,
  email: string,
): Promise<User | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('email', '=', normalizeEmail(email))
    .executeTakeFirst();
}

export async function findOrganization(db: IdentityDb, orgId: string): Promise<Organization | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', orgId).executeTakeFirst();
}

export async function findOrganizationBySlug(db: IdentityDb, realmId: string, slug: string) {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('realm_id', '=', realmId)
    .where('slug', '=', slug.toLowerCase())
    .executeTakeFirst();
}

type MembershipRow = Omit<MembershipView, 'permissions'>;

/** Per database: the memberships query, compiled once (every session read that misses the cache runs it). */
const membershipQueries = new WeakMap<IdentityDb, CompiledStatement<{ userId: string }, MembershipRow>>();

function membershipQuery(db: IdentityDb) {
  let query = membershipQueries.get(db);
  if (!query) {
    query = compileQuery(db, (param: Param<{ userId: string }>) =>
      db
        .selectFrom('memberships')
        .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
        .select(['memberships.org_id', 'organizations.name as org_name', 'memberships.role'])
        .where('memberships.user_id', '=', param('userId'))
        .orderBy('memberships.created_at')
        .orderBy('memberships.org_id'),
    );
    membershipQueries.set(db, query);
  }
  return query;
}

export async function membershipsOf(db: IdentityDb, userId: string): Promise<MembershipView[]> {
  const rows = await membershipQuery(db).execute({ userId });
  return rows.map((r) => ({ ...r, permissions: permissionsOf(r.role) }));
}

export async function findMembership(db: IdentityDb, orgId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function membersOf(db: IdentityDb, orgId: string) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id as user_id', 'users.email', 'users.name', 'memberships.role'])
    .where('memberships.org_id', '=', orgId)
    .orderBy('memberships.created_at')
    .execute();
}

/** Adds a user of the organization's realm; false when they already belong to it. */
export async function addMembership(db: IdentityDb, org: Organization, userId: string, role: Role) {
  if (await findMembership(db, org.id, userId)) return false;
  await db
    .insertInto('memberships')
    .values({ org_id: org.id, user_id: userId, realm_id: org.realm_id, role, created_at: Date.now() })
    .execute();
  return true;
}

export type MembershipChange = 'changed' | 'not_found' | 'last_admin';

/**
 * Gives a member another role, or ends the membership (`role` null). An organization
 * always keeps an administrator, so the change that would remove the last one is
 * refused. The organization's row is locked first on PostgreSQL: two administrators
 * demoting each other at once cannot both succeed. The revocation epoch moves in the
 * same transaction, so every service drops what it cached about the member.
 */
export async function changeMembership(
  database: Database<Tables>,
  orgId: string,
  userId: string,
  role: Role | null,
): Promise<MembershipChange> {
  return transaction(database, async (trx) => {
    let organization = trx.selectFrom('organizations').select('id').where('id', '=', orgId);
    if (database.dialect === 'postgres') organization = organization.forUpdate();
    await organization.executeTakeFirst();
    const current = await findMembership(trx, orgId, userId);
    if (!current) return 'not_found';
    if (current.role === 'admin' && role !== 'admin') {
      const { admins } = await trx
        .selectFrom('memberships')
        .select((eb) => eb.fn.countAll().as('admins'))
        .where('org_id', '=', orgId)
        .where('role', '=', 'admin')
        .executeTakeFirstOrThrow();
      if (Number(admins) <= 1) return 'last_admin';
    }
    if (role === null)
      await trx.deleteFrom('memberships').where('org_id', '=', orgId).where('user_id', '=', userId).execute();
    else
      await trx
        .updateTable('memberships')
        .set({ role })
        .where('org_id', '=', orgId)
        .where('user_id', '=', userId)
        .execute();
    await bumpRevocationEpoch(trx);
    return 'changed';
  });
}

export type DisableChange = 'changed' | 'unchanged' | 'not_found';

/**
 * Disables a user (`disabled` true) or enables them again. Disabling ends every
 * session and pending second-factor step of the user; both move the revocation epoch
 * in the same transaction, so running services and identity instances learn it
 * within a second even when an operator command wrote it.
 */
export async function setUserDisabled(
  database: Database<Tables>,
  realmId: string,
  email: string,
  disabled: boolean,
): Promise<DisableChange> {
  return transaction(database, async (trx) => {
    const user = await findUserByEmail(trx, realmId, email);
    if (!user) return 'not_found';
    if ((user.disabled_at !== null) === disabled) return 'unchanged';
    await trx
      .updateTable('users')
      .set({ disabled_at: disabled ? Date.now() : null })
      .where('id', '=', user.id)
      .execute();
    if (disabled) {
      await trx.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('mfa_challenges').where('user_id', '=', user.id).execute();
    }
    await bumpRevocationEpoch(trx);
    return 'changed';
  });
}

/** Turns the organization's public assistant on or off. */
export async function setPublicAssistant(db: IdentityDb, orgId: string, on: boolean) {
  await db
    .updateTable('organizations')
    .set({ public_assistant: on ? 1 : 0 })
    .where('id', '=', orgId)
    .execute();
}

/** Members must keep a second factor (`require_2fa`). */
export async function setRequire2fa(db: IdentityDb, orgId: string, on: boolean) {
  await db
    .updateTable('organizations')
    .set({ require_2fa: on ? 1 : 0 })
    .where('id', '=', orgId)
    .execute();
}

export async function verifyOrganization(db: IdentityDb, orgId: string, at = Date.now()) {
  const result = await db
    .updateTable('organizations')
    .set({ verified: 1, verified_at: at })
    .where('id', '=', orgId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

async function uniqueSlug(db: IdentityDb, realmId: string, name: string) {
  const base = slugify(name);
  if (!(await findOrganizationBySlug(db, realmId, base))) return base;
  return `${base}-${base32(randomBytes(3))}`;
}

export interface NewAccount {
  realmId: string;
  email: string;
  name: string;
  passwordHash: string;
  orgName: string;
}

export type RegistrationResult =
  | { ok: true; user: User; org: Organization }
  | { ok: false; reason: 'exists' };

/** A trial sign-up: the organization, its first user, and that user as its admin, in one transaction. */
export async function registerAccount(
  database: Database<Tables>,
  account: NewAccount,
): Promise<RegistrationResult> {
  const db = database.kysely;
  if (await findUserByEmail(db, account.realmId, account.email)) return { ok: false, reason: 'exists' };
  const now = Date.now();
  const userId = newId('usr');
  const user: User = {
    id: userId,
    realm_id: account.realmId,
    email: normalizeEmail(account.email),
    name: account.name,
    avatar_color: avatarColorFor(userId),
    password_hash: account.passwordHash,
    totp_secret: null,
    totp_pending_secret: null,
    totp_last_step: null,
    created_at: now,
    disabled_at: null,
    email_verified_at: null,
  };
  const org: Organization = {
    id: newId('org'),
    realm_id: account.realmId,
    name: account.orgName,
    slug: await uniqueSlug(db, account.realmId, account.orgName),
    verified: 0,
    verified_at: null,
    public_assistant: 0,
    require_2fa: 0,
    created_at: now,
  };
  try {
    await transaction(database, async (trx) => {
      await trx.insertInto('organizations').values(org).execute();
      await trx.insertInto('users').values(user).execute();
      await trx
        .insertInto('memberships')
        .values({
          org_id: org.id,
          user_id: user.id,
          realm_id: account.realmId,
          role: 'admin',
          created_at: now,
        })
        .execute();
    });
  } catch (error) {
    // Two sign-ups with one address at once: the unique index lets one through.
    if (await findUserByEmail(db, account.realmId, account.email)) return { ok: false, reason: 'exists' };
    throw error;
  }
  return { ok: true, user, org };
}

/** A user of a realm without an organization of their own (operators, invited people). */
export async function createUser(
  db: IdentityDb,
  input: { realmId: string; email: string; name: string; passwordHash: string },
): Promise<User> {
  const id = newId('usr');
  const user: User = {
    id,
    realm_id: input.realmId,
    email: normalizeEmail(input.email),
    name: input.name,
    avatar_color: avatarColorFor(id),
    password_hash: input.passwordHash,
    totp_secret: null,
    totp_pending_secret: null,
    totp_last_step: null,
    created_at: Date.now(),
    disabled_at: null,
    email_verified_at: null,
  };
  await db.insertInto('users').values(user).execute();
  return user;
}
