/**
 * Our SD-JWT VCs and status lists, read by the reference libraries as an independent verifier
 * would: the key is found by resolving the credential's `iss` (a did:web) from our HTTP answers,
 * `@sd-jwt/sd-jwt-vc` verifies the credential (and fetches its status list itself) and a wallet
 * presentation with key binding, and `@sd-jwt/jwt-status-list` reads the Token Status List.
 * No verifier code of ours is involved.
 */
import { createPublicKey, type JsonWebKey, verify as verifySignature } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { digest } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT, getStatusListFromJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { newWallet, type SignedIn, signUp } from '../src/testing/index.js';
import { issue, startCredentialIdentity } from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

interface DidDocument {
  id: string;
  verificationMethod: { id: string; publicKeyJwk: JsonWebKey }[];
  assertionMethod: string[];
}

/**
 * did:web resolution (W3C did:web method): `did:web:host%3Aport[:path…]` is
 * `https://host:port/.well-known/did.json` (or `/path/…/did.json`). The service under test
 * speaks plain http on loopback, so only the scheme changes.
 */
async function resolveDidWeb(did: string): Promise<DidDocument> {
  const [method, name, host, ...path] = did.split(':');
  if (method !== 'did' || name !== 'web' || !host) throw new Error(`not a did:web: ${did}`);
  const origin = decodeURIComponent(host);
  const loopback = /^(127\.0\.0\.1|localhost)(:\d+)?$/.test(origin);
  const location = path.length > 0 ? `/${path.join('/')}/did.json` : '/.well-known/did.json';
  const response = await fetch(`${loopback ? 'http' : 'https'}://${origin}${location}`);
  if (response.status !== 200) throw new Error(`did:web resolution answered ${response.status}`);
  const document = (await response.json()) as DidDocument;
  if (document.id !== did) throw new Error('the DID document names another DID');
  return document;
}

const es256 = (jwk: JsonWebKey, data: string, signature: string) =>
  verifySignature(
    'sha256',
    Buffer.from(data),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );

/** The assertion key a JWT's `kid` names in its issuer's DID document (`iss` resolved over HTTP). */
async function issuerKeyOf(signingInput: string): Promise<JsonWebKey> {
  const [header, payload] = signingInput
    .split('.')
    .map((part) => JSON.parse(Buffer.from(part!, 'base64url').toString()));
  const document = await resolveDidWeb(payload.iss);
  if (!String(header.kid).startsWith(`${payload.iss}#`)) throw new Error('kid is not a key of iss');
  if (!document.assertionMethod.includes(header.kid)) throw new Error('kid is not an assertion method');
  const method = document.verificationMethod.find((m) => m.id === header.kid);
  if (!method) throw new Error('no such verification method');
  return method.publicKeyJwk;
}

/** An independent verifier: keys through did:web, key binding through `cnf.jwk`. */
const verifier = () =>
  new SDJwtVcInstance({
    hasher: digest,
    verifier: async (data, signature) => es256(await issuerKeyOf(data), data, signature),
    kbVerifier: (data, signature, payload) => {
      const cnf = payload.cnf as { jwk?: JsonWebKey } | undefined;
      return cnf?.jwk !== undefined && es256(cnf.jwk, data, signature);
    },
  });

describeEachDatabase('credentials, read by the reference SD-JWT VC and status list libraries', (target) => {
  let svc: RunningService;
  let admin: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    admin = await signUp(svc.url, {
      email: email('interop'),
      password: 'secret1',
      name: 'Ada Interop',
      orgName: 'Acme',
    });
  });

  describe('SD-JWT VC (@sd-jwt/sd-jwt-vc)', () => {
    it('publishes no metadata naming an issuer other than iss', async () => {
      const { body } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
      expect(body.issuer).toMatch(/^did:web:/);
      expect((await svc.fetch('/.well-known/jwt-vc-issuer')).status).toBe(404);
      const oid4vci = await (await svc.fetch('/.well-known/openid-credential-issuer')).json();
      // The OpenID4VCI issuer names no signing keys or other issuer identifier for the credentials.
      expect(JSON.stringify(oid4vci)).not.toContain('jwks');
    });

    it('verifies a credential with the key found by resolving its iss (did:web)', async () => {
      const { status, body } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
      expect(status).toBe(200);
      const verified = await verifier().verify(body.sdjwt);
      expect(verified.payload).toMatchObject({
        iss: body.issuer,
        vct: body.vct,
        email: admin.session.user.email,
        name: 'Ada Interop',
      });
      expect(verified.header).toMatchObject({ typ: 'dc+sd-jwt', alg: 'ES256' });
    });

    it('refuses a revoked credential, reading its status list itself', async () => {
      const { body } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
      expect((await postJson(svc, '/api/did/revoke', { id: body.id }, admin.cookie)).status).toBe(200);
      await expect(verifier().verify(body.sdjwt)).rejects.toThrow(/status/i);
    });

    it('verifies a wallet presentation with key binding, and refuses another nonce', async () => {
      const offer = await (
        await postJson(svc, '/api/did/offer', { type: 'IdentityCredential', pin: true }, admin.cookie)
      ).json();
      const wallet = newWallet();
      const { sdjwt } = await wallet.redeem(offer.offerUriByReference, offer.txCode);
      const presentation = await wallet.present(sdjwt, { nonce: 'rp-n-1', aud: 'https://rp.example' });
      const verified = await verifier().verify(presentation, { keyBindingNonce: 'rp-n-1' });
      expect(verified.kb?.payload).toMatchObject({ nonce: 'rp-n-1', aud: 'https://rp.example' });
      expect(verified.payload).toMatchObject({ cnf: { jwk: wallet.publicJwk }, name: 'Ada Interop' });
      await expect(verifier().verify(presentation, { keyBindingNonce: 'rp-n-2' })).rejects.toThrow();
      // A key binding signed by another key than cnf.jwk does not verify.
      const other = await newWallet().present(sdjwt, { nonce: 'rp-n-1', aud: 'https://rp.example' });
      await expect(verifier().verify(other, { keyBindingNonce: 'rp-n-1' })).rejects.toThrow();
    });
  });

  describe('Token Status List (@sd-jwt/jwt-status-list 0.19.0)', () => {
    it('publishes a statuslist+jwt whose sub is the credential’s uri, ZLIB-compressed, read right', async () => {
      const { body: kept } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
      const { body: revoked } = await issue(svc, admin.cookie, { type: 'IdentityCredential' });
      expect((await postJson(svc, '/api/did/revoke', { id: revoked.id }, admin.cookie)).status).toBe(200);
      for (const [credential, expected] of [
        [kept, 0],
        [revoked, 1],
      ] as const) {
        const reference = (
          decodeJwt(credential.sdjwt.split('~')[0]) as {
            status: { status_list: { uri: string; idx: number } };
          }
        ).status.status_list;
        const response = await fetch(reference.uri);
        expect(response.headers.get('content-type')).toContain('application/statuslist+jwt');
        const jwt = await response.text();
        expect(decodeProtectedHeader(jwt)).toMatchObject({ typ: 'statuslist+jwt', alg: 'ES256' });
        const claims = decodeJwt(jwt) as {
          sub: string;
          iss: string;
          status_list: { bits: number; lst: string };
        };
        expect(claims.sub).toBe(reference.uri);
        expect(claims.iss).toBe(credential.issuer);
        // The draft: DEFLATE with the ZLIB format (RFC 1950), then base64url without padding.
        expect(claims.status_list.lst).toMatch(/^[A-Za-z0-9_-]+$/);
        const compressed = Buffer.from(claims.status_list.lst, 'base64url');
        expect(compressed[0]! & 0x0f).toBe(8); // CM = 8: deflate
        expect(((compressed[0]! << 8) | compressed[1]!) % 31).toBe(0); // the ZLIB header check
        const bytes = inflateSync(compressed);
        expect((bytes[reference.idx >> 3]! >> (reference.idx & 7)) & 1).toBe(expected);
        // And the reference library reads the same.
        expect(getListFromStatusListJWT(jwt).getStatus(reference.idx)).toBe(expected);
        expect(getStatusListFromJWT(credential.sdjwt.split('~')[0])).toEqual(reference);
        // The signature verifies with the key of the issuer's DID document.
        const [header, payload, signature] = jwt.split('.');
        expect(es256(await issuerKeyOf(`${header}.${payload}`), `${header}.${payload}`, signature!)).toBe(
          true,
        );
      }
    });
  });
});
