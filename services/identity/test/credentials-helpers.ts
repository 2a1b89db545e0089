/**
 * Helpers for the credential tests: an identity service with a known key-encryption
 * key, a holder (wallet) key pair, Key Binding JWTs, and re-signing a credential
 * with the issuer's real key (to build expired or otherwise altered ones).
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type AnyDatabase, KeyEncryptionKey } from '@xv/platform';
import type { RunningService } from '@xv/platform/testing';
import { IssuerKeyring } from '../src/credentials/keys/issuer-keys.js';
import { type PublicJwk, parseJws, signEs256 } from '../src/credentials/sd-jwt/jws.js';
import { sdHashOf, splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import { startIdentity } from '../src/testing/index.js';
import { postJson } from './helpers.js';

const TEST_KEK_BYTES = Buffer.alloc(32, 7);
export const TEST_KEK = KeyEncryptionKey.fromBytes(TEST_KEK_BYTES);

export function startCredentialIdentity(database: AnyDatabase, env: Record<string, string> = {}) {
  return startIdentity(database, { XV_IDENTITY_KEK: TEST_KEK_BYTES.toString('base64'), ...env });
}

export interface Holder {
  privateKey: KeyObject;
  publicJwk: PublicJwk;
}

export function newHolder(): Holder {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  return { privateKey, publicJwk: { kty: kty as 'EC', crv: crv as 'P-256', x: x!, y: y! } };
}

/** A presentation of `sdjwt` with a Key Binding JWT signed by `holder`. */
export function present(
  sdjwt: string,
  holder: Holder,
  claims: { nonce: string; aud?: string; iat?: number; sd_hash?: string },
  header: Record<string, unknown> = { typ: 'kb+jwt' },
): string {
  const { presentation } = splitSdJwt(sdjwt);
  const kb = signEs256(
    header,
    {
      iat: claims.iat ?? Math.floor(Date.now() / 1000),
      aud: claims.aud ?? 'https://verifier.example',
      nonce: claims.nonce,
      sd_hash: claims.sd_hash ?? sdHashOf(presentation),
    },
    holder.privateKey,
  );
  return `${presentation}${kb}`;
}

/** Re-signs a credential's issuer JWT with the issuer's active key after `change` edits header and payload. */
export async function resign(
  svc: RunningService,
  sdjwt: string,
  change: (header: Record<string, unknown>, payload: Record<string, unknown>) => void,
): Promise<string> {
  const keyring = new IssuerKeyring(svc.context.database.kysely, TEST_KEK);
  const key = await keyring.signingKey();
  const parts = splitSdJwt(sdjwt);
  const jws = parseJws(parts.jwt)!;
  change(jws.header, jws.payload);
  return `${signEs256(jws.header, jws.payload, key.privateKey)}~${parts.disclosures.map((d) => `${d}~`).join('')}`;
}

export async function verify(svc: RunningService, body: Record<string, unknown>) {
  const response = await postJson(svc, '/api/did/verify', body);
  return { status: response.status, body: await response.json() };
}

export async function issue(svc: RunningService, cookie: string, body: Record<string, unknown>) {
  const response = await postJson(svc, '/api/did/issue', body, cookie);
  return { status: response.status, body: await response.json() };
}

export function decodePayload(sdjwt: string): Record<string, unknown> {
  return parseJws(splitSdJwt(sdjwt).jwt)!.payload;
}

export function decodeHeader(sdjwt: string): Record<string, unknown> {
  return parseJws(splitSdJwt(sdjwt).jwt)!.header;
}

/** Runs the pre-authorized code flow by hand: offer → token → credential, bound to `holder`. */
export async function walletCredential(
  svc: RunningService,
  cookie: string,
  holder: Holder,
  type = 'IdentityCredential',
): Promise<string> {
  const offer = await (await postJson(svc, '/api/did/offer', { type }, cookie)).json();
  const code =
    offer.offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'];
  const token = await (
    await svc.fetch('/api/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
        'pre-authorized_code': code,
      }).toString(),
    })
  ).json();
  const response = await postJson(
    svc,
    '/api/oid4vci/credential',
    {
      credential_configuration_id: type,
      proof: { proof_type: 'jwt', jwt: proofJwt(svc, holder, token.c_nonce) },
    },
    undefined,
    { authorization: `Bearer ${token.access_token}` },
  );
  const body = await response.json();
  if (response.status !== 200)
    throw new Error(`credential endpoint answered ${response.status}: ${JSON.stringify(body)}`);
  return body.credential;
}

export function proofJwt(
  svc: RunningService,
  holder: Holder,
  nonce: string | undefined,
  overrides: { header?: Record<string, unknown>; payload?: Record<string, unknown> } = {},
): string {
  return signEs256(
    { typ: 'openid4vci-proof+jwt', jwk: holder.publicJwk, ...overrides.header },
    { aud: svc.url, iat: Math.floor(Date.now() / 1000), ...(nonce ? { nonce } : {}), ...overrides.payload },
    holder.privateKey,
  );
}
