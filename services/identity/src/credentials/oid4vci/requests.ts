/**
 * @module credentials/oid4vci/requests
 * What the wallet endpoints do once HTTP is read: the token request of the
 * pre-authorized code flow and the credential request (which configuration,
 * which proof, for whom). Every failure is an OAuthError.
 */
import type { AccountDirectory } from '../accounts.js';
import type { CredentialService } from '../issuance/issuer.js';
import { walletSubject } from '../issuance/subjects.js';
import { isJsonObject, type JsonObject } from '../sd-jwt/jws.js';
import { CREDENTIAL_TYPES, type CredentialType, isCredentialType, vctOf } from '../types.js';
import { invalidRequest, OAuthError } from './oauth-error.js';
import { checkProof } from './proof.js';
import { PRE_AUTHORIZED_GRANT, type TokenResponse, type WalletIssuance, type WalletToken } from './wallet.js';

/** Exchanges the code of a token request (its fields, form-encoded or JSON) for an access token. */
export async function tokenRequest(
  wallet: WalletIssuance,
  form: Record<string, unknown>,
): Promise<TokenResponse> {
  const grantType = form.grant_type;
  if (typeof grantType !== 'string' || grantType === '') throw invalidRequest('grant_type is missing.');
  if (grantType !== PRE_AUTHORIZED_GRANT)
    throw new OAuthError(400, 'unsupported_grant_type', `Only ${PRE_AUTHORIZED_GRANT} is supported.`);
  const code = form['pre-authorized_code'];
  if (typeof code !== 'string' || code === '' || code.length > 512)
    throw invalidRequest('pre-authorized_code is missing.');
  const txCode = form.tx_code ?? form.user_pin;
  if (txCode !== undefined && (typeof txCode !== 'string' || txCode.length > 64))
    throw invalidRequest('tx_code must be a string.');
  return wallet.exchangeCode(code, txCode);
}

/** The one proof JWT of a request: `proof` (OpenID4VCI drafts) or `proofs.jwt` (1.0). */
function proofJwtOf(request: JsonObject): string {
  const { proof, proofs } = request;
  if (proof !== undefined && proofs !== undefined) throw invalidRequest('Give proof or proofs, not both.');
  if (isJsonObject(proof)) {
    if (proof.proof_type !== 'jwt' || typeof proof.jwt !== 'string')
      throw new OAuthError(400, 'invalid_proof', 'Only proofs of proof_type jwt are supported.');
    return proof.jwt;
  }
  if (isJsonObject(proofs)) {
    const jwts = proofs.jwt;
    if (Object.keys(proofs).length !== 1 || !Array.isArray(jwts) || typeof jwts[0] !== 'string')
      throw new OAuthError(400, 'invalid_proof', 'Only proofs of type jwt are supported.');
    if (jwts.length !== 1)
      throw new OAuthError(400, 'invalid_proof', 'Batch issuance is not supported: give exactly one proof.');
    return jwts[0];
  }
  throw new OAuthError(
    400,
    'invalid_proof',
    'The credential request needs a proof of possession of the wallet key.',
  );
}

/** The credential configuration asked for: by id (1.0), or by format and vct (earlier drafts). */
function configurationOf(request: JsonObject, baseUrl: string): CredentialType {
  const id = request.credential_configuration_id;
  if (typeof id === 'string') {
    if (!isCredentialType(id))
      throw new OAuthError(
        400,
        'unknown_credential_configuration',
        'The issuer offers no such credential configuration.',
      );
    return id;
  }
  if ((request.format === 'dc+sd-jwt' || request.format === 'vc+sd-jwt') && typeof request.vct === 'string') {
    const type = CREDENTIAL_TYPES.find((t) => vctOf(baseUrl, t) === request.vct);
    if (type) return type;
    throw new OAuthError(
      400,
      'unknown_credential_configuration',
      'The issuer offers no credential of that vct.',
    );
  }
  throw new OAuthError(400, 'invalid_credential_request', 'Name the credential_configuration_id to issue.');
}

export interface WalletCredentialDeps {
  accounts: AccountDirectory;
  baseUrl: string;
  issuer: CredentialService;
  wallet: WalletIssuance;
}

/** Issues the credential a wallet asks for with its access token, bound to the key its proof shows. */
export async function credentialRequest(
  deps: WalletCredentialDeps,
  token: WalletToken,
  request: JsonObject,
): Promise<string> {
  const type = configurationOf(request, deps.baseUrl);
  const allowed: unknown = JSON.parse(token.types);
  if (!Array.isArray(allowed) || !allowed.includes(type))
    throw new OAuthError(
      400,
      'unknown_credential_configuration',
      'The offer behind this access token does not include that credential.',
    );
  const holderJwk = await checkProof(proofJwtOf(request), deps.baseUrl, deps.wallet, token.token_hash);
  const subject = await walletSubject(deps.accounts, deps.baseUrl, type, token).catch((error: unknown) => {
    throw new OAuthError(
      400,
      'credential_request_denied',
      error instanceof Error ? error.message : 'Denied.',
    );
  });
  const issued = await deps.issuer.issue({
    realmId: token.realm_id,
    type,
    ...subject,
    holderJwk,
    issuedBy: token.user_id,
    channel: 'wallet',
  });
  return issued.sdjwt;
}
