/**
 * @module bench/lib/credentials-setup
 * What the credential benchmark needs from a running identity service, obtained
 * through its HTTP API as a client would: credentials issued to a signed-in person
 * (`lib/identity.ts`), one bound to a wallet key through the OpenID4VCI
 * pre-authorized code flow.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { signEs256 } from '../../services/identity/src/credentials/sd-jwt/jws.js';
import { sdHashOf, splitSdJwt } from '../../services/identity/src/credentials/sd-jwt/sd-jwt.js';

export interface Wallet {
  privateKey: KeyObject;
  publicJwk: { kty: string; crv: string; x: string; y: string };
}

export function newWallet(): Wallet {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, publicJwk: { kty: kty!, crv: crv!, x: x!, y: y! } };
}

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

/** Issues an IdentityCredential through `POST /api/did/issue` and returns its SD-JWT. */
export async function issueOne(url: string, cookie: string): Promise<string> {
  const issued = await postJson(`${url}/api/did/issue`, { type: 'IdentityCredential' }, { cookie });
  return issued.sdjwt as string;
}

/** An IdentityCredential bound to `wallet` (`cnf.jwk`): offer, token, then the credential endpoint. */
export async function walletCredential(url: string, cookie: string, wallet: Wallet): Promise<string> {
  const offer = (await postJson(`${url}/api/did/offer`, { type: 'IdentityCredential' }, { cookie })) as {
    offer: { grants: Record<string, { 'pre-authorized_code': string }> };
  };
  const code =
    offer.offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']!['pre-authorized_code'];
  const token = await (
    await fetch(`${url}/api/oid4vci/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': code,
      }),
    })
  ).json();
  const metadata = await (await fetch(`${url}/.well-known/openid-credential-issuer`)).json();
  const proof = signEs256(
    { typ: 'openid4vci-proof+jwt', jwk: wallet.publicJwk },
    { aud: metadata.credential_issuer, iat: Math.floor(Date.now() / 1000), nonce: token.c_nonce },
    wallet.privateKey,
  );
  const answer = await postJson(
    `${url}/api/oid4vci/credential`,
    { credential_configuration_id: 'IdentityCredential', proof: { proof_type: 'jwt', jwt: proof } },
    { authorization: `Bearer ${token.access_token}` },
  );
  return answer.credential as string;
}

/** A presentation of `sdjwt` (every Disclosure) with a fresh Key Binding JWT for `nonce`. */
export function presentWithKeyBinding(sdjwt: string, wallet: Wallet, nonce: string, aud: string): string {
  const { presentation } = splitSdJwt(sdjwt);
  const kb = signEs256(
    { typ: 'kb+jwt' },
    { iat: Math.floor(Date.now() / 1000), aud, nonce, sd_hash: sdHashOf(presentation) },
    wallet.privateKey,
  );
  return `${presentation}${kb}`;
}
