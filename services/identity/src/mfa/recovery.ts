/**
 * @module mfa/recovery
 * Recovery codes: ten random codes handed out when 2FA is turned on, each usable
 * once in place of a TOTP code. Only their SHA-256 is stored (they carry 60 random
 * bits, enough that a hash cannot be searched back, and guessing is rate-limited).
 */
import { randomBytes } from 'node:crypto';
import { base32, type Database, hashToken, newId, transaction } from '@xv/platform';
import type { IdentityDb, Tables } from '../db.js';

export const RECOVERY_CODE_COUNT = 10;

/** `xxxx-xxxx-xxxx`, lowercase base32 without look-alike letters. */
function newRecoveryCode(): string {
  const raw = base32(randomBytes(8)).slice(0, 12);
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8, 12)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replace(/[\s-]/g, '');
}

/** Replaces the user's recovery codes with ten new ones and returns them (the only time they are seen). */
export async function issueRecoveryCodes(database: Database<Tables>, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const now = Date.now();
  await transaction(database, async (trx) => {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_codes')
      .values(
        codes.map((code) => ({
          id: newId('rc'),
          user_id: userId,
          code_hash: hashToken(normalizeRecoveryCode(code)),
          used_at: null,
          created_at: now,
        })),
      )
      .execute();
  });
  return codes;
}

/** Spends a recovery code: true once, false for an unknown or already used code. */
export async function useRecoveryCode(db: IdentityDb, userId: string, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (!/^[0-9a-z]{12}$/.test(normalized)) return false;
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: Date.now() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashToken(normalized))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function remainingRecoveryCodes(db: IdentityDb, userId: string): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function deleteRecoveryCodes(db: IdentityDb, userId: string) {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}
