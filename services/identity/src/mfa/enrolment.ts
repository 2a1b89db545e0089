/**
 * @module mfa/enrolment
 * Turning TOTP on and off for an account: a pending secret, confirmed by a first
 * code; checking a second-factor code (a current TOTP code or an unused recovery
 * code); and the lockout wrong codes count against.
 */
import { consumeOrReject, isLimited, type KeyEncryptionKey, type RateLimiter } from '@xv/platform';
import type { IdentityDb, UsersTable } from '../db.js';
import { errors } from '../errors.js';
import { deleteRecoveryCodes, useRecoveryCode } from './recovery.js';
import {
  acceptTotp,
  enrolment,
  matchingStep,
  newTotpSecret,
  openTotpSecret,
  sealTotpSecret,
  TOTP_CODE,
} from './totp.js';

/** A new pending secret for `user`, with what an authenticator app needs to add it. */
export async function startTotpEnrolment(
  db: IdentityDb,
  kek: KeyEncryptionKey,
  user: Pick<UsersTable, 'id' | 'email'>,
  issuer: string,
) {
  const secret = newTotpSecret();
  await db
    .updateTable('users')
    .set({ totp_pending_secret: sealTotpSecret(kek, user.id, secret) })
    .where('id', '=', user.id)
    .execute();
  return enrolment(secret, user.email, issuer);
}

/** Turns 2FA on when `code` matches the pending secret; false for a wrong code (or a secret replaced meanwhile). */
export async function confirmTotpEnrolment(
  db: IdentityDb,
  kek: KeyEncryptionKey,
  userId: string,
  pending: string,
  code: string,
): Promise<boolean> {
  const step = matchingStep(openTotpSecret(kek, userId, pending), code);
  if (step === null) return false;
  const result = await db
    .updateTable('users')
    .set({ totp_secret: pending, totp_pending_secret: null, totp_last_step: step })
    .where('id', '=', userId)
    .where('totp_pending_secret', '=', pending)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Turns 2FA off: the secret and the recovery codes go. */
export async function turnOffTotp(db: IdentityDb, userId: string) {
  await db
    .updateTable('users')
    .set({ totp_secret: null, totp_pending_secret: null })
    .where('id', '=', userId)
    .execute();
  await deleteRecoveryCodes(db, userId);
}

/**
 * Accepts a current TOTP code of `totpSecret` (sealed, as stored; never a step already
 * used) or an unused recovery code, which is used up.
 */
export async function acceptSecondFactorCode(
  db: IdentityDb,
  kek: KeyEncryptionKey,
  userId: string,
  totpSecret: string,
  code: string,
): Promise<boolean> {
  if (code.length === 0 || code.length > 64) return false;
  return TOTP_CODE.test(code)
    ? acceptTotp(db, userId, openTotpSecret(kek, userId, totpSecret), code)
    : useRecoveryCode(db, userId, code);
}

/**
 * Runs `check` for a signed-in person entering a code; wrong codes count against
 * `limiter` under `mfa:<user id>` (the sign-in's second step counts there too) and
 * answer 400 `invalid_code`, a locked-out person 429.
 */
export async function guardCode(limiter: RateLimiter, userId: string, check: () => Promise<boolean>) {
  const key = `mfa:${userId}`;
  if (await isLimited(limiter, key)) await consumeOrReject(limiter, key);
  if (await check()) return;
  await consumeOrReject(limiter, key);
  throw errors.invalid_code();
}
