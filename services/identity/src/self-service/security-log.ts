/**
 * @module self-service/security-log
 * What happened to an account, for its owner to read: sign-ins, failed attempts, password and factor
 * changes, with the time, the client address and the browser.
 *
 * The history is bounded: a person keeps at most the last `SECURITY_LOG_RETENTION.maxEvents` events of the
 * last `SECURITY_LOG_RETENTION.maxAgeMs`. Each write trims that one person's log (two statements on the
 * `(user_id, at)` index), and the service's periodic sweep drops what went stale in the logs of people
 * who no longer sign in.
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

export const SECURITY_LOG_RETENTION = { maxEvents: 500, maxAgeMs: 90 * 24 * 3600 * 1000 } as const;

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
  await trimSecurityLog(db, userId);
}

/**
 * Drops one person's events beyond the retention: older than the age limit, or past the newest
 * `maxEvents` (by time, then id). A failed sign-in storm thus never grows the table without bound.
 */
export async function trimSecurityLog(db: IdentityDb, userId: string, now = Date.now()): Promise<void> {
  const { maxEvents, maxAgeMs } = SECURITY_LOG_RETENTION;
  const oldestKept = await db
    .selectFrom('security_events')
    .select(['at', 'id'])
    .where('user_id', '=', userId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(maxEvents - 1)
    .limit(1)
    .executeTakeFirst();
  await db
    .deleteFrom('security_events')
    .where('user_id', '=', userId)
    .where((eb) => {
      const stale = eb('at', '<', now - maxAgeMs);
      if (!oldestKept) return stale;
      const at = Number(oldestKept.at);
      return eb.or([stale, eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', oldestKept.id)])]);
    })
    .execute();
}

/** Drops every event past the age limit; the service runs it with its other periodic sweeps. */
export async function sweepSecurityLog(db: IdentityDb, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom('security_events')
    .where('at', '<', now - SECURITY_LOG_RETENTION.maxAgeMs)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface SecurityEvent {
  kind: string;
  label: string;
  at: number;
  address: string | null;
  user_agent: string | null;
  detail: string | null;
}

/** The account's newest events first, within the retention (a sweep may not have run yet). */
export async function securityLog(
  db: IdentityDb,
  userId: string,
  limit = 50,
  now = Date.now(),
): Promise<SecurityEvent[]> {
  const rows = await db
    .selectFrom('security_events')
    .selectAll()
    .where('user_id', '=', userId)
    .where('at', '>=', now - SECURITY_LOG_RETENTION.maxAgeMs)
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
