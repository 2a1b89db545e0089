/**
 * OpenID4VCI nonce binding: a `c_nonce` handed out with one access token (by the token endpoint, the nonce
 * endpoint or an `invalid_nonce` answer) proves freshness for that token's credential request only.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { type SignedIn, signUp } from '../src/testing/index.js';
import { type Holder, newHolder, proofJwt, startCredentialIdentity } from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

describeEachDatabase('OpenID4VCI nonce binding', (target) => {
  let svc: RunningService;
  let person: SignedIn;
  let holder: Holder;
  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, { email: email('nonce'), password: 'secret1', name: 'N', orgName: 'O' });
    holder = newHolder();
  });

  /** Offer → token: `{access_token, c_nonce, …}`. */
  const access = async () => {
    const offer = await (
      await postJson(svc, '/api/did/offer', { type: 'IdentityCredential' }, person.cookie)
    ).json();
    const response = await svc.fetch('/api/oid4vci/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: GRANT,
        'pre-authorized_code': offer.offer.grants[GRANT]['pre-authorized_code'],
      }).toString(),
    });
    return response.json();
  };
  const request = (accessToken: string, nonce: string) =>
    postJson(
      svc,
      '/api/oid4vci/credential',
      {
        credential_configuration_id: 'IdentityCredential',
        proof: { proof_type: 'jwt', jwt: proofJwt(svc, holder, nonce) },
      },
      undefined,
      { authorization: `Bearer ${accessToken}` },
    );

  it("a c_nonce issued with another access token is refused with invalid_nonce, and stays its owner's", async () => {
    const victim = await access();
    const attacker = await access();
    const stolen = await request(attacker.access_token, victim.c_nonce);
    expect(stolen.status).toBe(400);
    const body = await stolen.json();
    expect(body).toMatchObject({ error: 'invalid_nonce', error_description: expect.any(String) });
    // The refusal spent nothing: the nonce still works with the token it was issued to.
    expect((await request(victim.access_token, victim.c_nonce)).status).toBe(200);
    // The fresh nonce of the answer belongs to the token that asked, not to anyone else.
    expect((await request(victim.access_token, body.c_nonce)).status).toBe(400);
    expect((await request(attacker.access_token, body.c_nonce)).status).toBe(200);
  });

  it('a nonce the nonce endpoint issued to one access token is refused with another', async () => {
    const owner = await access();
    const other = await access();
    const fetched = await svc.fetch('/api/oid4vci/nonce', {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.access_token}` },
    });
    const { c_nonce } = await fetched.json();
    expect((await (await request(other.access_token, c_nonce)).json()).error).toBe('invalid_nonce');
    expect((await request(owner.access_token, c_nonce)).status).toBe(200);
  });
});
