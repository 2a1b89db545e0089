import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { compactVerify, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { signEs256 } from '../src/credentials/sd-jwt/jws.js';
import { splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import { newWallet, type SignedIn, signUp } from '../src/testing/index.js';
import {
  decodePayload,
  type Holder,
  newHolder,
  proofJwt,
  startCredentialIdentity,
  verify,
} from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

describeEachDatabase('OpenID4VCI issuer (pre-authorized code flow)', (target) => {
  let svc: RunningService;
  let person: SignedIn;
  let orgId: string;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('wallet'),
      password: 'secret1',
      name: 'Wanda',
      orgName: 'Wallet Org',
    });
    orgId = person.session.memberships[0]!.org_id;
  });

  const offer = async (body: Record<string, unknown>) => {
    const response = await postJson(svc, '/api/did/offer', body, person.cookie);
    expect(response.status).toBe(200);
    return response.json();
  };
  const codeOf = (o: { offer: { grants: Record<string, { 'pre-authorized_code': string }> } }) =>
    o.offer.grants[GRANT]!['pre-authorized_code'];
  const token = (fields: Record<string, string>, as: 'form' | 'json' = 'form') =>
    svc.fetch('/api/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: as === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
    });
  const credential = (accessToken: string, body: unknown) =>
    postJson(svc, '/api/oid4vci/credential', body, undefined, { authorization: `Bearer ${accessToken}` });

  it('creates an offer with exactly the spec fields, a 4-digit PIN and an openid-credential-offer URI', async () => {
    const body = await offer({
      types: ['IdentityCredential', 'MembershipCredential'],
      org_id: orgId,
      pin: true,
    });
    expect(Object.keys(body).sort()).toEqual([
      'expiresAt',
      'offer',
      'offerUri',
      'offerUriByReference',
      'txCode',
    ]);
    expect(body.txCode).toMatch(/^\d{4}$/);
    expect(body.offer).toEqual({
      credential_issuer: svc.url,
      credential_configuration_ids: ['IdentityCredential', 'MembershipCredential'],
      grants: {
        [GRANT]: { 'pre-authorized_code': expect.any(String), tx_code: { length: 4, input_mode: 'numeric' } },
      },
    });
    expect(body.offerUri).toBe(
      `openid-credential-offer://?credential_offer=${encodeURIComponent(JSON.stringify(body.offer))}`,
    );
    expect(body.offerUriByReference).toMatch(
      /^openid-credential-offer:\/\/\?credential_offer_uri=http%3A%2F%2F[^&]+%2Fapi%2Foid4vci%2Foffers%2Fxof_[\w-]{43}$/,
    );
    expect(body.expiresAt).toBeGreaterThan(Date.now() / 1000);
    const plain = await offer({ type: 'IdentityCredential' });
    expect(plain.txCode).toBeUndefined();
    expect(plain.offer.grants[GRANT].tx_code).toBeUndefined();
  });

  it('refuses offers without a session, of unknown types, or for another organization', async () => {
    expect((await postJson(svc, '/api/did/offer', { type: 'IdentityCredential' })).status).toBe(401);
    const unknown = await postJson(svc, '/api/did/offer', { type: 'Nope' }, person.cookie);
    expect((await unknown.json()).error).toBe('unknown_type');
    expect((await postJson(svc, '/api/did/offer', {}, person.cookie)).status).toBe(400);
    const other = await signUp(svc.url, { email: email(), password: 'secret1', name: 'X', orgName: 'X Org' });
    const foreign = await postJson(
      svc,
      '/api/did/offer',
      { type: 'MembershipCredential', org_id: other.session.memberships[0]!.org_id },
      person.cookie,
    );
    expect(foreign.status).toBe(403);
  });

  it('publishes issuer and authorization server metadata for three dc+sd-jwt configurations', async () => {
    const issuer = await (await svc.fetch('/.well-known/openid-credential-issuer')).json();
    expect(issuer.credential_issuer).toBe(svc.url);
    expect(issuer.credential_endpoint).toBe(`${svc.url}/api/oid4vci/credential`);
    expect(issuer.nonce_endpoint).toBe(`${svc.url}/api/oid4vci/nonce`);
    expect(Object.keys(issuer.credential_configurations_supported).sort()).toEqual([
      'IdentityCredential',
      'MembershipCredential',
      'OrganizationAttestation',
    ]);
    for (const [type, configuration] of Object.entries<Record<string, unknown>>(
      issuer.credential_configurations_supported,
    ))
      expect(configuration).toMatchObject({
        format: 'dc+sd-jwt',
        vct: `${svc.url}/vc/${type}`,
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
      });
    const as = await (await svc.fetch('/.well-known/oauth-authorization-server')).json();
    expect(as).toMatchObject({
      issuer: svc.url,
      token_endpoint: `${svc.url}/api/oid4vci/token`,
      'pre-authorized_grant_anonymous_access_supported': true,
    });
  });

  it('exchanges a code (form-encoded) for exactly the spec token response, and never twice', async () => {
    const code = codeOf(await offer({ type: 'IdentityCredential' }));
    const first = await token({ grant_type: GRANT, 'pre-authorized_code': code });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const body = await first.json();
    expect(Object.keys(body).sort()).toEqual([
      'access_token',
      'c_nonce',
      'c_nonce_expires_in',
      'expires_in',
      'token_type',
    ]);
    expect(body).toMatchObject({ token_type: 'bearer', expires_in: 600, c_nonce_expires_in: 600 });
    const again = await token({ grant_type: GRANT, 'pre-authorized_code': code });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
  });

  it('lets only one of two racing exchanges of a code win', async () => {
    const code = codeOf(await offer({ type: 'IdentityCredential' }));
    const answers = await Promise.all(
      [1, 2, 3].map(() => token({ grant_type: GRANT, 'pre-authorized_code': code }, 'json')),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
  });

  it('answers bad token requests with OAuth errors', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'pre-authorized_code': 'x' }, 'invalid_request'],
      [{ grant_type: 'authorization_code', code: 'x' }, 'unsupported_grant_type'],
      [{ grant_type: GRANT }, 'invalid_request'],
      [{ grant_type: GRANT, 'pre-authorized_code': 'xpc_unknown' }, 'invalid_grant'],
    ];
    for (const [fields, error] of cases) {
      const response = await token(fields);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe(error);
    }
    const text = await svc.fetch('/api/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect((await text.json()).error).toBe('invalid_request');
    const broken = await svc.fetch('/api/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect((await broken.json()).error).toBe('invalid_request');
  });

  describe('the PIN (tx_code)', () => {
    it('is required, and a right PIN works (JSON body)', async () => {
      const o = await offer({ type: 'IdentityCredential', pin: true });
      const missing = await token({ grant_type: GRANT, 'pre-authorized_code': codeOf(o) });
      expect((await missing.json()).error).toBe('invalid_request');
      const ok = await token(
        { grant_type: GRANT, 'pre-authorized_code': codeOf(o), tx_code: o.txCode },
        'json',
      );
      expect(ok.status).toBe(200);
    });

    it('burns the code after five wrong PINs, even for the right one afterwards (brute force)', async () => {
      const o = await offer({ type: 'IdentityCredential', pin: true });
      const wrong = o.txCode === '0000' ? '0001' : '0000';
      const guesses = await Promise.all(
        Array.from({ length: 8 }, () =>
          token({ grant_type: GRANT, 'pre-authorized_code': codeOf(o), tx_code: wrong }),
        ),
      );
      for (const guess of guesses) {
        expect(guess.status).toBe(400);
        expect((await guess.json()).error).toBe('invalid_grant');
      }
      const right = await token({ grant_type: GRANT, 'pre-authorized_code': codeOf(o), tx_code: o.txCode });
      expect(right.status).toBe(400);
      expect((await right.json()).error).toBe('invalid_grant');
    });
  });

  describe('the credential endpoint', () => {
    let holder: Holder;
    beforeAll(() => {
      holder = newHolder();
    });
    const accessFor = async (type = 'IdentityCredential') => {
      const code = codeOf(await offer({ type }));
      return (await token({ grant_type: GRANT, 'pre-authorized_code': code })).json();
    };

    it('issues a credential bound to the proof key, answering credentials[] and credential', async () => {
      const access = await accessFor();
      const response = await credential(access.access_token, {
        credential_configuration_id: 'IdentityCredential',
        proofs: { jwt: [proofJwt(svc, holder, access.c_nonce)] },
      });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(Object.keys(body).sort()).toEqual(['credential', 'credentials']);
      expect(body.credentials).toEqual([{ credential: body.credential }]);
      expect((decodePayload(body.credential).cnf as { jwk: unknown }).jwk).toEqual(holder.publicJwk);
    });

    it('rejects a replayed c_nonce with invalid_nonce (and a fresh nonce to retry with)', async () => {
      const access = await accessFor();
      const proof = proofJwt(svc, holder, access.c_nonce);
      const body = {
        credential_configuration_id: 'IdentityCredential',
        proof: { proof_type: 'jwt', jwt: proof },
      };
      expect((await credential(access.access_token, body)).status).toBe(200);
      const replay = await credential(access.access_token, body);
      expect(replay.status).toBe(400);
      const error = await replay.json();
      expect(error).toMatchObject({
        error: 'invalid_nonce',
        error_description: expect.any(String),
        c_nonce: expect.any(String),
      });
      const fresh = await (await svc.fetch('/api/oid4vci/nonce', { method: 'POST' })).json();
      const retry = await credential(access.access_token, {
        credential_configuration_id: 'IdentityCredential',
        proof: { proof_type: 'jwt', jwt: proofJwt(svc, holder, fresh.c_nonce) },
      });
      expect(retry.status).toBe(200);
    });

    it('rejects bad proofs with invalid_proof', async () => {
      const access = await accessFor();
      const nonce = async () =>
        (await (await svc.fetch('/api/oid4vci/nonce', { method: 'POST' })).json()).c_nonce;
      const bad = [
        proofJwt(svc, holder, await nonce(), { header: { typ: 'JWT' } }),
        proofJwt(svc, holder, await nonce(), { payload: { aud: 'https://other.example' } }),
        proofJwt(svc, holder, await nonce(), { payload: { iat: Math.floor(Date.now() / 1000) - 3600 } }),
        proofJwt(svc, holder, await nonce(), { header: { jwk: newHolder().publicJwk } }),
        proofJwt(svc, holder, await nonce(), { header: { jwk: undefined, kid: 'did:example:123#1' } }),
        signEs256(
          { typ: 'openid4vci-proof+jwt', alg: 'none', jwk: holder.publicJwk },
          { aud: svc.url },
          holder.privateKey,
        ).replace(
          /^[^.]+/,
          Buffer.from(
            JSON.stringify({ typ: 'openid4vci-proof+jwt', alg: 'none', jwk: holder.publicJwk }),
          ).toString('base64url'),
        ),
      ];
      for (const jwt of bad) {
        const response = await credential(access.access_token, {
          credential_configuration_id: 'IdentityCredential',
          proof: { proof_type: 'jwt', jwt },
        });
        expect(response.status).toBe(400);
        expect((await response.json()).error).toBe('invalid_proof');
      }
      const noNonce = await credential(access.access_token, {
        credential_configuration_id: 'IdentityCredential',
        proof: { proof_type: 'jwt', jwt: proofJwt(svc, holder, undefined) },
      });
      expect((await noNonce.json()).error).toBe('invalid_nonce');
    });

    it('refuses a missing or unknown access token, another configuration, and a malformed request', async () => {
      const unauthenticated = await postJson(svc, '/api/oid4vci/credential', {
        credential_configuration_id: 'IdentityCredential',
      });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.headers.get('www-authenticate')).toContain('invalid_token');
      expect((await credential('xwt_forged', {})).status).toBe(401);
      const access = await accessFor();
      const other = await credential(access.access_token, {
        credential_configuration_id: 'OrganizationAttestation',
        proof: { proof_type: 'jwt', jwt: proofJwt(svc, holder, access.c_nonce) },
      });
      expect((await other.json()).error).toBe('unknown_credential_configuration');
      const malformed = await svc.fetch('/api/oid4vci/credential', {
        method: 'POST',
        headers: { authorization: `Bearer ${access.access_token}`, 'content-type': 'application/json' },
        body: '[1,2]',
      });
      expect((await malformed.json()).error).toBe('invalid_credential_request');
    });
  });

  describe('a wallet written by others (@openid4vc/openid4vci)', () => {
    it('runs offer → token → credential with a PIN and gets a credential we and jose can verify', async () => {
      const wallet = newWallet();
      const created = await offer({ type: 'MembershipCredential', org_id: orgId, pin: true });
      const { configurationIds, sdjwt } = await wallet.redeem(created.offerUri, created.txCode);
      expect(configurationIds).toEqual(['MembershipCredential']);

      // jose alone, against the key in our DID document.
      const didDocument = await (await svc.fetch('/.well-known/did.json')).json();
      const issuerJwt = splitSdJwt(sdjwt).jwt;
      const kid = JSON.parse(Buffer.from(issuerJwt.split('.')[0]!, 'base64url').toString()).kid;
      const method = didDocument.verificationMethod.find((m: { id: string }) => m.id === kid);
      const { payload } = await compactVerify(issuerJwt, await importJWK(method.publicKeyJwk, 'ES256'));
      const claims = JSON.parse(new TextDecoder().decode(payload));
      expect(claims).toMatchObject({
        iss: didDocument.id,
        vct: `${svc.url}/vc/MembershipCredential`,
        cnf: { jwk: wallet.publicJwk },
      });

      // And our verifier, with key binding.
      const result = await verify(svc, {
        token: await wallet.present(sdjwt, { nonce: 'rp-nonce', aud: 'https://verifier.example' }),
        nonce: 'rp-nonce',
      });
      expect(result.body).toMatchObject({
        valid: true,
        payload: { org_id: orgId, org_name: 'Wallet Org', role: 'admin' },
      });
    });
  });
});
