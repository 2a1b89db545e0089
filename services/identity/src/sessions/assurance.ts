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
