/**
 * @module mfa/challenges
 * The step between a correct password and a correct second factor: a short-lived
 * random token in the `xv_mfa` cookie, stored hashed with the user and where to go next.
 */
import { hashToken, newSecretToken } from '@xv/platform';
import type { IdentityDb, MfaChallengesTable } from '../db.js';

export const MFA_CHALLENGE_SECONDS = 300;

export async function createMfaChallenge(
  db: IdentityDb,
  input: { realmId: string; userId: string; redirect: string | null; wantedAal: string | null },
): Promise<string> {
  const token = newSecretToken('xmf');
  const now = Date.now();
  // One pending challenge per user; older ones (and expired ones of anyone) go.
  await db
    .deleteFrom('mfa_challenges')
    .where((eb) => eb.or([eb('user_id', '=', input.userId), eb('expires_at', '<=', now)]))
    .execute();
  await db
    .insertInto('mfa_challenges')
    .values({
      token_hash: hashToken(token),
      realm_id: input.realmId,
      user_id: input.userId,
      redirect: input.redirect,
      wanted_aal: input.wantedAal,
      expires_at: now + MFA_CHALLENGE_SECONDS * 1000,
    })
    .execute();
  return token;
}

export async function findMfaChallenge(
  db: IdentityDb,
  token: string | undefined,
): Promise<MfaChallengesTable | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom('mfa_challenges')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  return row && row.expires_at > Date.now() ? row : null;
}

export async function deleteMfaChallenge(db: IdentityDb, tokenHash: string) {
  await db.deleteFrom('mfa_challenges').where('token_hash', '=', tokenHash).execute();
}
