/**
 * @module credentials/oid4vci/proof
 * The wallet's proof of possession (OpenID4VCI `jwt` proof type): a JWT of `typ`
 * `openid4vci-proof+jwt`, ES256, with the wallet's public key in the header
 * (`jwk`), addressed to this issuer (`aud`), freshly issued (`iat`), carrying a
 * nonce of ours that has not been used and was issued with the request's access
 * token (or with none). The key it proves becomes the credential's
 * `cnf.jwk`.
 */
import { ALLOWED_ALGS, importPublicJwk, type PublicJwk, parseJws, verifyEs256 } from '../sd-jwt/jws.js';
import { CLOCK_SKEW_SECONDS } from '../verification/verifier.js';
import { invalidProof, OAuthError } from './oauth-error.js';
import type { WalletIssuance } from './wallet.js';

export const PROOF_TYP = 'openid4vci-proof+jwt';
/** How old a proof may be, seconds. */
export const PROOF_MAX_AGE_SECONDS = 300;

/** The proof's holder key, after checking the proof was made for this issuer and for the access token `tokenHash`. */
export async function checkProof(
  jwt: string,
  issuerUrl: string,
  wallet: WalletIssuance,
  tokenHash: string,
): Promise<PublicJwk> {
  const proof = parseJws(jwt);
  if (!proof) throw invalidProof('The proof is not a compact JWT.');
  const { header, payload } = proof;
  if (header.typ !== PROOF_TYP) throw invalidProof(`The proof's typ must be ${PROOF_TYP}.`);
  if (typeof header.alg !== 'string' || !ALLOWED_ALGS.includes(header.alg))
    throw invalidProof('The proof must be signed with ES256.');
  if (header.kid !== undefined || header.x5c !== undefined)
    throw invalidProof('Give the wallet key in the proof header as jwk (kid and x5c are not supported).');
  const holder = importPublicJwk(header.jwk);
  if (!holder) throw invalidProof('The proof header has no public P-256 jwk.');
  if (!verifyEs256(proof, holder.key)) throw invalidProof('The proof signature does not verify.');
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(issuerUrl)) throw invalidProof('The proof is addressed to another issuer (aud).');
  const now = Math.floor(Date.now() / 1000);
  const iat = payload.iat;
  if (typeof iat !== 'number' || iat > now + CLOCK_SKEW_SECONDS || iat < now - PROOF_MAX_AGE_SECONDS)
    throw invalidProof('The proof is not fresh (iat).');
  if (typeof payload.nonce !== 'string' || !(await wallet.consumeNonce(payload.nonce, tokenHash)))
    throw new OAuthError(
      400,
      'invalid_nonce',
      'The proof nonce is unknown, expired, already used or was issued with another access token.',
      { c_nonce: await wallet.newNonce(tokenHash) },
    );
  return holder.jwk;
}
