/**
 * @module self-service/profile
 * What a person changes about their own account: display name, password, verified address.
 */
import { consumeOrReject, isLimited, type RateLimiter } from '@xv/platform';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import type { User } from '../accounts/repository.js';
import type { IdentityDb } from '../db.js';
import { errors } from '../errors.js';

export async function setDisplayName(db: IdentityDb, userId: string, name: string) {
  await db.updateTable('users').set({ name }).where('id', '=', userId).execute();
}

export async function setPassword(db: IdentityDb, userId: string, password: string) {
  await db
    .updateTable('users')
    .set({ password_hash: await hashPassword(password) })
    .where('id', '=', userId)
    .execute();
}

export async function markEmailVerified(db: IdentityDb, userId: string, now = Date.now()) {
  await db.updateTable('users').set({ email_verified_at: now }).where('id', '=', userId).execute();
}

/**
 * Sets a new password once the current one is given: a wrong one counts against the account's limiter
 * (the one of second-factor codes), so it cannot be guessed from a session left open.
 */
export async function changePassword(
  db: IdentityDb,
  limiter: RateLimiter,
  user: User,
  passwords: { current: string; next: string },
) {
  const key = `pwd:${user.id}`;
  if (await isLimited(limiter, key)) await consumeOrReject(limiter, key);
  if (!(await verifyPassword(user.password_hash, passwords.current))) {
    await consumeOrReject(limiter, key);
    throw errors.wrong_password();
  }
  await setPassword(db, user.id, passwords.next);
}
