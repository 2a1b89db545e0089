/**
 * @module sign-in/limiters
 * The rate limits of identity, built from its settings: the limiters of signed-in
 * code entry, passkey sign-in and registration, and the sign-in throttle
 * (sign-in/throttle.ts).
 */
import { type AnyDatabase, createRateLimiter, type Logger, type RateLimiter } from '@xv/platform';
import { SignInThrottle } from './throttle.js';

export interface IdentityLimiters {
  /** Wrong codes a signed-in person enters while managing 2FA (`mfa:<user id>`). */
  account: RateLimiter;
  /** Failed passkey sign-ins per client IP (password failures never count here). */
  passkey: RateLimiter;
  /** Registrations per client IP. */
  registration: RateLimiter;
}

/** The settings (`XV_IDENTITY_*`) the limits follow. */
export interface LimitSettings {
  lockoutSeconds: number;
  accountMaxFailures: number;
  ipMaxFailures: number;
  accountSafetyFailures: number;
  registrationsPerIpHour: number;
}

export async function createLimiters(
  database: AnyDatabase,
  settings: LimitSettings,
): Promise<IdentityLimiters> {
  const failures = { durationSeconds: settings.lockoutSeconds, blockSeconds: settings.lockoutSeconds };
  return {
    account: await createRateLimiter(database, {
      keyPrefix: 'identity-account',
      points: settings.accountMaxFailures,
      ...failures,
    }),
    passkey: await createRateLimiter(database, {
      keyPrefix: 'identity-passkey-ip',
      points: settings.ipMaxFailures,
      ...failures,
    }),
    registration: await createRateLimiter(database, {
      keyPrefix: 'identity-register',
      points: settings.registrationsPerIpHour,
      durationSeconds: 3600,
    }),
  };
}

export function createSignInThrottle(database: AnyDatabase, settings: LimitSettings, logger: Logger) {
  return SignInThrottle.create(
    database,
    {
      freeFailures: settings.accountMaxFailures,
      maxWaitSeconds: settings.lockoutSeconds,
      addressMaxFailures: settings.ipMaxFailures,
      accountMaxFailures: settings.accountSafetyFailures,
    },
    logger,
  );
}
