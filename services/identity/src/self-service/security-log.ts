/**
 * @module self-service/security-log
 * What happened to an account, for its owner to read: sign-ins, failed attempts, password and factor
 * changes, with the time, the client address and the browser.
 */
import { newId } from '@xv/platform';
import type { IdentityDb } from '../db.js';

export const SECURITY_EVENTS = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  second_factor_failed: 'Wrong second-factor code',
  password_changed: 'Password changed',
  password_reset: 'Password reset by e-mail',
  password_reset_requested: 'Password reset requested',
  totp_enabled: '2FA turned on',
  totp_disabled: '2FA turned off',
  recovery_codes_regenerated: 'New recovery codes',
  passkey_added: 'Passkey added',
  passkey_removed: 'Passkey removed',
  email_verified: 'E-mail address verified',
  sessions_ended: 'Signed out other sessions',
} as const;
export type SecurityEventKind = keyof typeof SECURITY_EVENTS;

/** Where a request came from, as the log records it. */
export interface Origin {
  address: string | null;
  userAgent: string | null;
}

export async function recordSecurityEvent(
  db: IdentityDb,
  userId: string,
  kind: SecurityEventKind,
  origin: Origin,
  detail: string | null = null,
): Promise<void> {
  await db
    .insertInto('security_events')
    .values({
      id: newId('sev'),
      user_id: userId,
      kind,
      address: origin.address,
      user_agent: origin.userAgent?.slice(0, 300) ?? null,
      detail,
      at: Date.now(),
    })
    .execute();
}

export interface SecurityEvent {
  kind: string;
  label: string;
  at: number;
  address: string | null;
  user_agent: string | null;
  detail: string | null;
}

/** The account's newest events first. */
export async function securityLog(db: IdentityDb, userId: string, limit = 50): Promise<SecurityEvent[]> {
  const rows = await db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    kind: row.kind,
    label: SECURITY_EVENTS[row.kind as SecurityEventKind] ?? row.kind,
    at: Number(row.at),
    address: row.address,
    user_agent: row.user_agent,
    detail: row.detail,
  }));
}
