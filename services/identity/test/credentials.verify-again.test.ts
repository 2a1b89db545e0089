/**
 * A credential verified once is verified again without a second signature check
 * (its issuer-signed JWT is kept by its exact text): everything that depends on the
 * presentation or the moment must still be checked every time.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PublicJwk } from '../src/credentials/sd-jwt/jws.js';
import { objectDisclosure, splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import { VerifiedIssuerJwts } from '../src/credentials/verification/issuer-jwts.js';
import { type SignedIn, signUp } from '../src/testing/index.js';
import {
  type Holder,
  issue,
  newHolder,
  present,
  startCredentialIdentity,
  verify,
  walletCredential,
} from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

describeEachDatabase('credentials: verifying the same credential again', (target) => {
  let svc: RunningService;
  let person: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('again'),
      password: 'secret1',
      name: 'Ada',
      orgName: 'Again Org',
    });
  });

  const reasonFor = async (body: Record<string, unknown>) => {
    const answer = await verify(svc, body);
    expect(answer.status).toBe(200);
    return answer.body.valid ? 'valid' : (answer.body.reason as string);
  };

  it('still checks the Disclosures and the signature of what is presented', async () => {
    const sdjwt = (await issue(svc, person.cookie, { type: 'IdentityCredential' })).body.sdjwt as string;
    expect(await reasonFor({ token: sdjwt })).toBe('valid');
    expect(await reasonFor({ token: sdjwt })).toBe('valid');
    const { jwt, disclosures } = splitSdJwt(sdjwt);
    const stray = objectDisclosure('email', 'mallory@example.com');
    expect(await reasonFor({ token: `${jwt}~${[...disclosures, stray].join('~')}~` })).toBe(
      'disclosure_unreferenced',
    );
    expect(await reasonFor({ token: `${jwt}~${[disclosures[0], disclosures[0]].join('~')}~` })).toBe(
      'disclosure_duplicate',
    );
    const flipped = `${jwt.slice(0, -2)}${jwt.at(-2) === 'A' ? 'B' : 'A'}${jwt.slice(-1)}`;
    expect(await reasonFor({ token: `${flipped}~${disclosures.join('~')}~` })).toBe('bad_signature');
    // Only what is disclosed comes back, presentation by presentation.
    const fewer = await verify(svc, { token: `${jwt}~${disclosures[0]}~` });
    expect(Object.keys(fewer.body.payload)).toHaveLength(
      Object.keys((await verify(svc, { token: sdjwt })).body.payload).length - 1,
    );
  });

  it('sees a revocation made after the credential was verified', async () => {
    const issued = (await issue(svc, person.cookie, { type: 'IdentityCredential' })).body;
    expect(await reasonFor({ token: issued.sdjwt })).toBe('valid');
    const revoked = await postJson(svc, '/api/did/revoke', { id: issued.id }, person.cookie);
    expect(revoked.status).toBe(200);
    expect(await reasonFor({ token: issued.sdjwt })).toBe('revoked');
  });

  describe('with key binding', () => {
    let holder: Holder;
    let bound: string;

    beforeAll(async () => {
      holder = newHolder();
      bound = await walletCredential(svc, person.cookie, holder);
    });

    it('checks each Key Binding JWT: a fresh one passes, a replayed or foreign one does not', async () => {
      const first = present(bound, holder, { nonce: 'again-1' });
      expect(await reasonFor({ token: first, nonce: 'again-1' })).toBe('valid');
      expect(await reasonFor({ token: present(bound, holder, { nonce: 'again-2' }), nonce: 'again-2' })).toBe(
        'valid',
      );
      expect(await reasonFor({ token: first, nonce: 'again-1' })).toBe('key_binding_replayed');
      expect(
        await reasonFor({ token: present(bound, newHolder(), { nonce: 'again-3' }), nonce: 'again-3' }),
      ).toBe('key_binding_invalid');
      expect(
        await reasonFor({
          token: present(bound, holder, { nonce: 'again-4', sd_hash: 'x'.repeat(43) }),
          nonce: 'again-4',
        }),
      ).toBe('sd_hash_mismatch');
      expect(await reasonFor({ token: bound, nonce: 'again-5' })).toBe('key_binding_missing');
    });
  });
});

describe('VerifiedIssuerJwts', () => {
  const key: PublicJwk = { kty: 'EC', crv: 'P-256', x: 'x1', y: 'y1' };
  const entry = () => ({
    header: { kid: 'k' },
    payload: { sub: 's', status: { idx: 1 } },
    kid: 'k',
    publicJwk: key,
  });

  it('forgets a JWT whose key is no longer the one that verified it', () => {
    const jwts = new VerifiedIssuerJwts();
    jwts.remember('a.b.c', entry());
    expect(jwts.get('a.b.c', () => key)?.payload.sub).toBe('s');
    expect(jwts.get('a.b.c', () => ({ ...key, x: 'x2' }))).toBeUndefined();
    expect(jwts.get('a.b.c', () => key)).toBeUndefined();
    jwts.remember('a.b.c', entry());
    expect(jwts.get('a.b.c', () => undefined)).toBeUndefined();
  });

  it('hands out frozen claims and keeps at most its capacity, dropping the oldest', () => {
    const jwts = new VerifiedIssuerJwts(2);
    jwts.remember('1', entry());
    jwts.remember('2', entry());
    jwts.remember('3', entry());
    expect(jwts.get('1', () => key)).toBeUndefined();
    const kept = jwts.get('3', () => key)!;
    expect(Object.isFrozen(kept.payload)).toBe(true);
    expect(Object.isFrozen(kept.payload.status)).toBe(true);
  });
});
