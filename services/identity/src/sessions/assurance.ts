/**
 * @module sessions/assurance
 * Assurance levels (NIST SP 800-63B) and the authentication methods behind them.
 * `amr` values follow RFC 8176: `pwd` password, `otp` one-time code, `hwk` a
 * device-bound passkey, `swk` a synced passkey, `mfa` when a passkey verified the
 * user (PIN or biometrics) and so counts as a multi-factor authenticator by itself.
 */
import type { AssuranceLevel } from '@xv/platform';

export const LEVELS: readonly AssuranceLevel[] = ['AAL1', 'AAL2', 'AAL3'];

export function isLevel(value: unknown): value is AssuranceLevel {
  return typeof value === 'string' && (LEVELS as readonly string[]).includes(value);
}

export function levelRank(level: string): number {
  return LEVELS.indexOf(level as AssuranceLevel);
}

export function meetsLevel(actual: string, wanted: string): boolean {
  return levelRank(actual) >= levelRank(wanted);
}

export function higherLevel(a: AssuranceLevel, b: AssuranceLevel): AssuranceLevel {
  return levelRank(a) >= levelRank(b) ? a : b;
}

export function mergeAmr(...lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

/**
 * True when the session proved `level` within `maxAgeMs`: an AAL3 proof also proves AAL2, and AAL1 is
 * proved by any live session.
 */
export function provedWithin(
  session: { aal2At: number | null; aal3At: number | null },
  level: string,
  maxAgeMs: number,
  now: number,
): boolean {
  if (levelRank(level) <= 0) return true;
  const last = level === 'AAL3' ? (session.aal3At ?? 0) : Math.max(session.aal2At ?? 0, session.aal3At ?? 0);
  return last > 0 && now - last <= maxAgeMs;
}
