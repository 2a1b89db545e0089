/**
 * OpenID4VCI 1.0, as a wallet written by others (`@openid4vc/openid4vci`) sees it: offers by
 * reference (short, served once, expiring, unguessable), the nonce endpoint and `c_nonce` binding,
 * and issuer metadata that the library's 1.0 parser accepts.
 */
import { Openid4vciClient, Openid4vciVersion, setGlobalConfig } from '@openid4vc/openid4vci';
import { hashToken } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialTables } from '../src/credentials/tables.js';
import { newWallet, type SignedIn, signUp } from '../src/testing/index.js';
import { decodePayload, newHolder, proofJwt, startCredentialIdentity } from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/** The https URL of a `credential_offer_uri` offer, and its last part (the reference). */
function referenceOf(offerUriByReference: string) {
  const url = new URL(offerUriByReference).searchParams.get('credential_offer_uri');
  if (!url) throw new Error('no credential_offer_uri');
  return { url, reference: url.slice(url.lastIndexOf('/') + 1) };
}

describeEachDatabase('OpenID4VCI 1.0: offers by reference, nonces, metadata', (target) => {
  let svc: RunningService;
  let person: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('oid4vci'),
      password: 'secret1',
      name: 'Olga',
      orgName: 'O',
    });
  });

  const newOffer = async (body: Record<string, unknown> = { type: 'IdentityCredential', pin: true }) => {
    const response = await postJson(svc, '/api/did/offer', body, person.cookie);
    expect(response.status).toBe(200);
    return response.json();
  };

  it('a wallet of others completes the pre-authorized flow from the by-reference URI, with a PIN', async () => {
    const offer = await newOffer();
    // Short enough for a QR code a phone reads at a glance (the by-value URI is several times longer).
    expect(offer.offerUriByReference.length).toBeLessThan(160);
    expect(offer.offerUriByReference.length).toBeLessThan(offer.offerUri.length);
    const wallet = newWallet();
    const { configurationIds, sdjwt } = await wallet.redeem(offer.offerUriByReference, offer.txCode);
    expect(configurationIds).toEqual(['IdentityCredential']);
    const payload = decodePayload(sdjwt);
    expect(payload.cnf).toEqual({ jwk: wallet.publicJwk });
    // The name is selectively disclosable: in a disclosure, not in the signed payload.
    expect(payload.name).toBeUndefined();
  });

  it('serves the offer document the by-value URI carries, once: a replayed offer URI is 410', async () => {
    const offer = await newOffer();
    const { url } = referenceOf(offer.offerUriByReference);
    expect(url.startsWith(`${svc.url}/api/oid4vci/offers/`)).toBe(true);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(await first.json()).toEqual(offer.offer);
    const replayed = await fetch(url);
    expect(replayed.status).toBe(410);
    expect((await replayed.json()).error).toBe('offer_already_fetched');
  });

  it('lets only one of racing fetches of an offer document win', async () => {
    const { url } = referenceOf((await newOffer()).offerUriByReference);
    const statuses = await Promise.all([1, 2, 3, 4].map(async () => (await fetch(url)).status));
    expect(statuses.sort()).toEqual([200, 410, 410, 410]);
  });

  it('refuses an expired offer URI with 410 offer_expired', async () => {
    const { url, reference } = referenceOf((await newOffer()).offerUriByReference);
    await svc.context.database.kysely
      .withTables<CredentialTables>()
      .updateTable('wallet_offers')
      .set({ expires_at: Date.now() - 1000 })
      .where('reference_hash', '=', hashToken(reference))
      .execute();
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect((await expired.json()).error).toBe('offer_expired');
  });

  it('has unguessable offer references (256 random bits), and a guessed one is 404', async () => {
    const { reference } = referenceOf((await newOffer()).offerUriByReference);
    expect(Buffer.from(reference.slice('xof_'.length), 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    const guessed = `xof_${Buffer.alloc(32, 1).toString('base64url')}`;
    // One character changed: a near miss (never the reference itself, whatever its last character).
    const nearMiss = `${reference.slice(0, -1)}${reference.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [guessed, 'ofr_1', 'xof_short', nearMiss]) {
      const response = await svc.fetch(`/api/oid4vci/offers/${path}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe('offer_not_found');
    }
    // The guesses spent nothing: the real reference still works once.
    expect((await svc.fetch(`/api/oid4vci/offers/${reference}`)).status).toBe(200);
  });

  describe('nonces', () => {
    const accessToken = async () => {
      const offer = await newOffer({ type: 'IdentityCredential' });
      const response = await svc.fetch('/api/oid4vci/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: GRANT,
          'pre-authorized_code': offer.offer.grants[GRANT]['pre-authorized_code'],
        }).toString(),
      });
      return (await response.json()).access_token as string;
    };
    const nonce = async () => {
      const response = await svc.fetch('/api/oid4vci/nonce', { method: 'POST' });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(Object.keys(body)).toEqual(['c_nonce']);
      return body.c_nonce as string;
    };
    const request = (token: string, jwt: string) =>
      postJson(
        svc,
        '/api/oid4vci/credential',
        { credential_configuration_id: 'IdentityCredential', proofs: { jwt: [jwt] } },
        undefined,
        { authorization: `Bearer ${token}` },
      );

    it('the nonce endpoint answers {c_nonce} with no-store, and a replayed c_nonce is invalid_nonce', async () => {
      const holder = newHolder();
      const token = await accessToken();
      const cNonce = await nonce();
      expect(cNonce).not.toBe(await nonce());
      expect((await request(token, proofJwt(svc, holder, cNonce))).status).toBe(200);
      // The same nonce in a new proof, even with a fresh access token: refused.
      for (const replayToken of [token, await accessToken()]) {
        const replay = await request(replayToken, proofJwt(svc, holder, cNonce));
        expect(replay.status).toBe(400);
        expect((await replay.json()).error).toBe('invalid_nonce');
      }
    });

    it('refuses a nonce the issuer never gave', async () => {
      const forged = await request(await accessToken(), proofJwt(svc, newHolder(), 'xcn_forged'));
      expect((await forged.json()).error).toBe('invalid_nonce');
    });
  });

  describe('issuer metadata', () => {
    beforeAll(() => setGlobalConfig({ allowInsecureUrls: true }));
    afterAll(() => setGlobalConfig({ allowInsecureUrls: false }));

    it("passes the library's parser as OpenID4VCI 1.0 metadata", async () => {
      const client = new Openid4vciClient({
        callbacks: {
          fetch,
          hash: () => new Uint8Array(),
          generateRandom: () => new Uint8Array(),
          clientAuthentication: () => {},
          signJwt: () => {
            throw new Error('not used');
          },
        },
      });
      const metadata = await client.resolveIssuerMetadata(svc.url);
      expect(metadata.originalDraftVersion).toBe(Openid4vciVersion.V1);
      expect(metadata.credentialIssuer.nonce_endpoint).toBe(`${svc.url}/api/oid4vci/nonce`);
      expect(Object.keys(metadata.credentialIssuer.credential_configurations_supported).sort()).toEqual([
        'IdentityCredential',
        'MembershipCredential',
        'OrganizationAttestation',
      ]);
      expect(metadata.authorizationServers?.[0]?.token_endpoint).toBe(`${svc.url}/api/oid4vci/token`);
    });
  });
});
