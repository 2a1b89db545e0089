/**
 * @module sign-in/password
 * Registration and the password check of a sign-in. A disabled account answers
 * like a wrong password: nothing reveals its state.
 */
import type { Database } from '@xv/platform';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import {
  createUser,
  DEFAULT_REALM,
  findUserByEmail,
  registerAccount,
  type User,
} from '../accounts/repository.js';
import type { Tables } from '../db.js';

export interface Registration {
  email: string;
  password: string;
  name: string;
  orgName: string;
}

/** A new account in the default realm with its own organization; null when the e-mail is taken. */
export async function registerWithPassword(database: Database<Tables>, input: Registration) {
  if (await findUserByEmail(database.kysely, DEFAULT_REALM, input.email)) return null;
  const result = await registerAccount(database, {
    realmId: DEFAULT_REALM,
    email: input.email,
    name: input.name,
    orgName: input.orgName,
    passwordHash: await hashPassword(input.password),
  });
  return result.ok ? result.user : null;
}

/**
 * A new account in the default realm without an organization of its own, for a person who signs up through an
 * invitation (they join the inviting organization next); null when the e-mail is taken.
 */
export async function registerInvited(database: Database<Tables>, input: Omit<Registration, 'orgName'>) {
  if (await findUserByEmail(database.kysely, DEFAULT_REALM, input.email)) return null;
  const passwordHash = await hashPassword(input.password);
  try {
    return await createUser(database.kysely, {
      realmId: DEFAULT_REALM,
      email: input.email,
      name: input.name,
      passwordHash,
    });
  } catch (error) {
    // Two sign-ups with one address at once: the unique index lets one through.
    if (await findUserByEmail(database.kysely, DEFAULT_REALM, input.email)) return null;
    throw error;
  }
}

/**
 * The password's account when it is right and the account is enabled, else null.
 * `user` is the account the e-mail names (looked up first, for the throttle); the
 * password is hashed even without one, so timing does not tell.
 */
export async function checkPassword(user: User | undefined, password: string): Promise<User | null> {
  if (!(await verifyPassword(user?.password_hash, password)) || !user || user.disabled_at !== null)
    return null;
  return user;
}
