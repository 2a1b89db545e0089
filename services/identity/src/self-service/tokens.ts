/**
 * @module self-service/tokens
 * Single-use tokens sent by e-mail: a password reset (1 hour) and an address check (24 hours). 256 random
 * bits, stored as SHA-256; spending one is a single conditional update, so it works once.
 */
import { hashToken, newSecretToken } from '@xv/platform';
import type { IdentityDb } from '../db.js';

export const TOKEN_PURPOSES = {
  password_reset: { prefix: 'xvr', lifetimeMs: 3600 * 1000 },
  email_verification: { prefix: 'xve', lifetimeMs: 24 * 3600 * 1000 },
} as const;
export type TokenPurpose = keyof typeof TOKEN_PURPOSES;

/** A new token for the account; earlier unused ones of the same purpose stop working. */
export async function issueAccountToken(
  db: IdentityDb,
  userId: string,
  purpose: TokenPurpose,
  now = Date.now(),
) {
  const { prefix, lifetimeMs } = TOKEN_PURPOSES[purpose];
  await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
  const token = newSecretToken(prefix);
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: now + lifetimeMs,
      used_at: null,
    })
    .execute();
  return token;
}

function wellFormed(token: string | undefined, purpose: TokenPurpose): token is string {
  return (
    typeof token === 'string' && token.length <= 200 && token.startsWith(`${TOKEN_PURPOSES[purpose].prefix}_`)
  );
}

/** The account of a live, unused token, without spending it (to show the page it opens). */
export async function peekAccountToken(
  db: IdentityDb,
  token: string | undefined,
  purpose: TokenPurpose,
  now = Date.now(),
) {
  if (!wellFormed(token, purpose)) return null;
  const row = await db
    .selectFrom('account_tokens')
    .select('user_id')
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Spends the token: its account's id, or null when it is unknown, used, of another purpose or expired. */
export async function spendAccountToken(
  db: IdentityDb,
  token: string | undefined,
  purpose: TokenPurpose,
  now = Date.now(),
) {
  const userId = await peekAccountToken(db, token, purpose, now);
  if (!userId || !token) return null;
  const spent = await db
    .updateTable('account_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1 ? userId : null;
}
