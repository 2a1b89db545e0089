/**
 * @module mfa/totp
 * Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30 s). A code is accepted
 * one step early or late (clock drift), and only for a time step later than the
 * last one accepted for that user, so a code seen once cannot be used again.
 */
import { KeyEncryptionKey } from '@xv/platform';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { IdentityDb } from '../db.js';

const PERIOD = 30;
const DIGITS = 6;
export const TOTP_CODE = /^\d{6}$/;

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/*
 * A TOTP secret must be read back to check codes, so it cannot be hashed: it is
 * stored sealed under the identity KEK, bound to its user (a sealed secret copied
 * to another account does not open).
 */
const sealContext = (userId: string) => `totp:${userId}`;

export function sealTotpSecret(kek: KeyEncryptionKey, userId: string, secret: string): string {
  return kek.encrypt(Buffer.from(secret), sealContext(userId));
}

export function openTotpSecret(kek: KeyEncryptionKey, userId: string, stored: string): string {
  return kek.decrypt(stored, sealContext(userId)).toString();
}

/** Seals secrets stored in plaintext by earlier versions; runs at start, and is a no-op once done. */
export async function sealPlaintextTotpSecrets(db: IdentityDb, kek: KeyEncryptionKey): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    // Only rows still holding a plaintext secret: this runs at every start. (NULL is never NOT LIKE.)
    .where((eb) =>
      eb.or([eb('totp_secret', 'not like', 'v1.%'), eb('totp_pending_secret', 'not like', 'v1.%')]),
    )
    .execute();
  const seal = (userId: string, value: string | null) =>
    value === null || KeyEncryptionKey.isCiphertext(value) ? value : sealTotpSecret(kek, userId, value);
  let sealed = 0;
  for (const row of rows) {
    const totpSecret = seal(row.id, row.totp_secret);
    const pendingSecret = seal(row.id, row.totp_pending_secret);
    // Compare-and-set: another instance sealing the same row at once leaves one consistent value.
    await db
      .updateTable('users')
      .set({ totp_secret: totpSecret, totp_pending_secret: pendingSecret })
      .where('id', '=', row.id)
      .where((eb) =>
        eb.and([
          row.totp_secret === null ? eb('totp_secret', 'is', null) : eb('totp_secret', '=', row.totp_secret),
          row.totp_pending_secret === null
            ? eb('totp_pending_secret', 'is', null)
            : eb('totp_pending_secret', '=', row.totp_pending_secret),
        ]),
      )
      .execute();
    sealed++;
  }
  return sealed;
}

function totp(secret: string, label = 'account', issuer = 'XV') {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD,
    secret: Secret.fromBase32(secret),
  });
}

/** The current code of a secret (tests and the CLI use it). */
export function totpCode(secret: string, timestamp = Date.now()): string {
  return totp(secret).generate({ timestamp });
}

/** The time step a code belongs to, or null when it matches none in the window. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  if (!TOTP_CODE.test(code)) return null;
  const delta = totp(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return Math.floor(now / 1000 / PERIOD) + delta;
}

export async function enrolment(secret: string, label: string, issuer: string) {
  const otpauthUrl = totp(secret, label, issuer).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrSvg };
}

/**
 * Accepts `code` for the user's enabled secret (or `secret` when given), at most
 * once per time step: the step is recorded atomically, so two requests racing with
 * one code cannot both win.
 */
export async function acceptTotp(
  db: IdentityDb,
  userId: string,
  secret: string,
  code: string,
): Promise<boolean> {
  const step = matchingStep(secret, code);
  if (step === null) return false;
  const result = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
