/**
 * @module passkeys/webauthn
 * Passkeys (WebAuthn) with @simplewebauthn/server: registration and sign-in
 * ceremonies, their single-use challenges, and the assurance a passkey gives.
 *
 * Which passkeys reach AAL3 (NIST SP 800-63B): a multi-factor cryptographic
 * authenticator whose key cannot leave the device. The authenticator must verify
 * the user (PIN or biometrics: the UV flag) and the credential must be
 * device-bound (the backup-eligible flag off: a security key, a platform
 * authenticator in a TPM or secure enclave). A synced passkey (backup-eligible,
 * e.g. a cloud keychain) with user verification counts as AAL2; a passkey that did
 * not verify the user counts as AAL1 (one factor, something you have).
 */

import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AssuranceLevel } from '@xv/platform';
import type { IdentityDb, PasskeysTable } from '../db.js';
import { attestedByTrustedRoot } from './trusted-roots.js';

const CHALLENGE_MS = 5 * 60_000;

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
  /** PEM attestation roots a new passkey must chain to; null: no attestation asked for. */
  trustedRoots: string[] | null;
}

export function passkeyAssurance(passkey: { deviceBound: boolean; userVerified: boolean }): AssuranceLevel {
  if (!passkey.userVerified) return 'AAL1';
  return passkey.deviceBound ? 'AAL3' : 'AAL2';
}

/** RFC 8176 methods of a passkey sign-in. */
export function passkeyAmr(passkey: { deviceBound: boolean; userVerified: boolean }): string[] {
  return [passkey.deviceBound ? 'hwk' : 'swk', ...(passkey.userVerified ? ['mfa'] : [])];
}

async function storeChallenge(db: IdentityDb, challenge: string, kind: string, userId: string | null) {
  const now = Date.now();
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
  await db
    .insertInto('webauthn_challenges')
    .values({ challenge, kind, user_id: userId, expires_at: now + CHALLENGE_MS })
    .execute();
}

/** True once for a live challenge of that kind (and user): it is deleted as it is used. */
function consumeChallenge(db: IdentityDb, kind: string, userId: string | null) {
  return async (challenge: string) => {
    let query = db
      .deleteFrom('webauthn_challenges')
      .where('challenge', '=', challenge)
      .where('kind', '=', kind)
      .where('expires_at', '>', Date.now());
    if (userId) query = query.where('user_id', '=', userId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  };
}

export async function passkeysOf(db: IdentityDb, userId: string) {
  return db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function registrationOptions(
  db: IdentityDb,
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
) {
  const existing = await passkeysOf(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: rp.trustedRoots ? 'direct' : 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as string[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await storeChallenge(db, options.challenge, 'register', user.id);
  return options;
}

export async function completeRegistration(
  db: IdentityDb,
  rp: RelyingParty,
  user: { id: string; realm_id: string },
  response: RegistrationResponseJSON,
  name: string,
): Promise<PasskeysTable | null> {
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: consumeChallenge(db, 'register', user.id),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      // Recorded rather than required: a passkey without user verification is kept, at AAL1.
      requireUserVerification: false,
    });
  } catch {
    return null;
  }
  if (!verification.verified) return null;
  const info = verification.registrationInfo;
  if (rp.trustedRoots && !(await attestedByTrustedRoot(info.attestationObject, rp.trustedRoots))) return null;
  const passkey: PasskeysTable = {
    id: info.credential.id,
    user_id: user.id,
    realm_id: user.realm_id,
    name,
    public_key: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: JSON.stringify(info.credential.transports ?? []),
    device_bound: info.credentialDeviceType === 'singleDevice' ? 1 : 0,
    user_verified: info.userVerified ? 1 : 0,
    created_at: Date.now(),
    last_used_at: null,
  };
  try {
    await db.insertInto('passkeys').values(passkey).execute();
  } catch {
    return null; // the same credential registered twice
  }
  return passkey;
}

export async function authenticationOptions(db: IdentityDb, rp: RelyingParty, userId: string | null) {
  // With a session we name the user's passkeys; without one the browser offers its discoverable passkeys.
  const allow = userId ? await passkeysOf(db, userId) : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: allow.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as string[] })),
  });
  await storeChallenge(db, options.challenge, 'login', null);
  return options;
}

export interface PasskeySignIn {
  userId: string;
  realmId: string;
  deviceBound: boolean;
  userVerified: boolean;
}

export async function completeAuthentication(
  db: IdentityDb,
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
): Promise<PasskeySignIn | null> {
  if (typeof response?.id !== 'string' || response.id.length > 1024) return null;
  const passkey = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('id', '=', response.id)
    .executeTakeFirst();
  if (!passkey) return null;
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: consumeChallenge(db, 'login', null),
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: passkey.counter,
        transports: JSON.parse(passkey.transports) as never,
      },
      requireUserVerification: false,
    });
  } catch {
    return null;
  }
  if (!verification.verified) return null;
  const info = verification.authenticationInfo;
  await db
    .updateTable('passkeys')
    .set({ counter: info.newCounter, last_used_at: Date.now() })
    .where('id', '=', passkey.id)
    .execute();
  return {
    userId: passkey.user_id,
    realmId: passkey.realm_id,
    // The backup state can change after registration (a key that became syncable): trust the latest.
    deviceBound: passkey.device_bound === 1 && info.credentialDeviceType === 'singleDevice',
    userVerified: info.userVerified,
  };
}

/** The user's passkeys as the account page and the API list them. */
export async function passkeyListing(db: IdentityDb, userId: string) {
  return (await passkeysOf(db, userId)).map((p) => ({
    id: p.id,
    name: p.name,
    aal: passkeyAssurance({ deviceBound: p.device_bound === 1, userVerified: p.user_verified === 1 }),
    created_at: p.created_at,
    last_used_at: p.last_used_at,
  }));
}

/** Removes one of the user's passkeys; false when they have none with that id. */
export async function removePasskey(db: IdentityDb, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('passkeys')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
