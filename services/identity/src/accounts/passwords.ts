/**
 * @module accounts/passwords
 * Passwords are hashed with argon2id (OWASP parameters). A sign-in for an unknown
 * e-mail still verifies against a dummy hash, so it takes as long as a real one.
 */
import { hash, verify } from '@node-rs/argon2';

// argon2id, 19 MiB, 2 passes, 1 lane: OWASP's first recommended setting.
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 6;
/** Longer inputs are refused before hashing: argon2 over megabytes would be a denial of service. */
export const PASSWORD_MAX_LENGTH = 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Computes the dummy hash ahead of the first unknown e-mail, so that one is not slower either. */
export function prepareDummyHash(): Promise<string> {
  dummyHash ??= hashPassword('not a real password, only here to spend the same time');
  return dummyHash;
}

/** Checks `password` against `stored`, or against a dummy hash when there is no account (same cost). */
export async function verifyPassword(stored: string | undefined, password: string): Promise<boolean> {
  if (stored === undefined) {
    await verify(await prepareDummyHash(), password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
