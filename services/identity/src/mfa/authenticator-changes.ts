/**
 * @module mfa/authenticator-changes
 * Who may change how an account signs in (NIST SP 800-63B §6.1.2). Once an account has a
 * second factor (TOTP, or a passkey that verifies the user), adding or removing an
 * authenticator and regenerating recovery codes need a session that proved AAL2 or more
 * within the last 10 minutes; otherwise 403 `step_up_required` names the level and the
 * step-up address. An account with only a password may bind its first second factor from
 * a password session, but only after re-entering the password: a stolen session cookie
 * alone cannot bind the thief's authenticator. A person whose organization requires 2FA
 * cannot remove their last second factor.
 */
import { consumeOrReject, isLimited, type RateLimiter } from '@xv/platform';
import { sql } from 'kysely';
import { verifyPassword } from '../accounts/passwords.js';
import { normalizeEmail } from '../accounts/repository.js';
import type { IdentityDb, UsersTable } from '../db.js';
import { errors } from '../errors.js';
import { provedWithin } from '../sessions/assurance.js';
import type { SessionRecord } from '../sessions/store.js';

/** How recent the AAL2 proof behind an authenticator change must be. */
export const RECENT_PROOF_SECONDS = 600;

export interface SecondFactors {
  totp: boolean;
  /** Ids of passkeys that verify the user (AAL2 or more by themselves). */
  passkeys: string[];
}

/**
 * The account's second factors. A passkey that did not verify the user is one factor
 * (AAL1): it neither counts here nor can it reach AAL2 for a step-up.
 */
export async function secondFactorsOf(db: IdentityDb, user: Pick<UsersTable, 'id' | 'totp_secret'>) {
  const passkeys = await db
    .selectFrom('passkeys')
    .select('id')
    .where('user_id', '=', user.id)
    .where('user_verified', '=', 1)
    .execute();
  return { totp: user.totp_secret !== null, passkeys: passkeys.map((p) => p.id) } satisfies SecondFactors;
}

function hasAny(factors: SecondFactors): boolean {
  return factors.totp || factors.passkeys.length > 0;
}

/** True when the session proved AAL2 (an AAL3 proof counts too) within `RECENT_PROOF_SECONDS`. */
export function provedAal2Recently(session: SessionRecord, now = Date.now()): boolean {
  return provedWithin(session, 'AAL2', RECENT_PROOF_SECONDS * 1000, now);
}

/** What deciding on an authenticator change needs. */
export interface ChangePolicy {
  db: IdentityDb;
  /** Wrong re-entered passwords count against the account's sign-in lockout here. */
  limiter: RateLimiter;
  /** This service's public origin, for the step-up address. */
  ownOrigin: string;
}

/** Where the account page sends a person to prove AAL2 again before a change. */
export function stepUpUrl(ownOrigin: string): string {
  const query = new URLSearchParams({
    aal: 'AAL2',
    max_age: String(RECENT_PROOF_SECONDS),
    redirect: '/account',
  });
  return `${ownOrigin}/step-up?${query}`;
}

/**
 * Refuses an authenticator change the session may not make. `binding` marks the start of
 * an enrolment (2FA set-up, passkey creation options): with no second factor yet, it needs
 * the account's password.
 */
export async function authorizeAuthenticatorChange(
  policy: ChangePolicy,
  session: SessionRecord,
  user: UsersTable,
  change: { binding?: boolean; password?: string | undefined } = {},
): Promise<SecondFactors> {
  const factors = await secondFactorsOf(policy.db, user);
  if (hasAny(factors)) {
    if (!provedAal2Recently(session))
      throw errors.step_up_required(undefined, { aal: 'AAL2', stepUpUrl: stepUpUrl(policy.ownOrigin) });
    return factors;
  }
  if (change.binding) await checkPasswordAgain(policy.limiter, user, change.password);
  return factors;
}

/** A re-entered password; wrong ones count against the account's sign-in lockout. */
async function checkPasswordAgain(limiter: RateLimiter, user: UsersTable, password: string | undefined) {
  if (!password) throw errors.password_required();
  const key = `${user.realm_id}:${normalizeEmail(user.email)}`;
  if (await isLimited(limiter, key)) await consumeOrReject(limiter, key);
  if (await verifyPassword(user.password_hash, password)) return;
  await consumeOrReject(limiter, key);
  throw errors.wrong_password();
}

/**
 * Refuses to remove a second factor when none would be left and an organization the
 * person belongs to requires 2FA. `removing` says which factor goes.
 */
export async function keepRequiredSecondFactor(
  db: IdentityDb,
  userId: string,
  factors: SecondFactors,
  removing: { totp: true } | { passkeyId: string },
): Promise<void> {
  // A passkey that is not a second factor (no user verification, or not this person's) changes nothing.
  if ('passkeyId' in removing && !factors.passkeys.includes(removing.passkeyId)) return;
  const left =
    'totp' in removing ? factors.passkeys.length : Number(factors.totp) + factors.passkeys.length - 1;
  if (left > 0) return;
  const requiring = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select(sql<number>`1`.as('one'))
    .where('memberships.user_id', '=', userId)
    .where('organizations.require_2fa', '=', 1)
    .executeTakeFirst();
  if (requiring) throw errors.second_factor_required();
}
