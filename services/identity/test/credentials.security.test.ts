import { generateKeyPairSync } from 'node:crypto';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { b64urlJson, signEs256 } from '../src/credentials/sd-jwt/jws.js';
import { digestOf, objectDisclosure, splitSdJwt } from '../src/credentials/sd-jwt/sd-jwt.js';
import { type SignedIn, signUp } from '../src/testing/index.js';
import {
  type Holder,
  issue,
  newHolder,
  present,
  resign,
  startCredentialIdentity,
  verify,
  walletCredential,
} from './credentials-helpers.js';
import { email, postJson } from './helpers.js';

describeEachDatabase('credentials: a verifier that cannot be fooled', (target) => {
  let svc: RunningService;
  let person: SignedIn;
  let sdjwt: string;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('sec'),
      password: 'secret1',
      name: 'Sam',
      orgName: 'Sec Org',
    });
    sdjwt = (await issue(svc, person.cookie, { type: 'IdentityCredential' })).body.sdjwt;
  });

  const reasonFor = async (token: string, extra: Record<string, unknown> = {}) => {
    const { status, body } = await verify(svc, { token, ...extra });
    expect(status).toBe(200);
    if (body.valid) return 'valid';
    expect(typeof body.message).toBe('string');
    return body.reason as string;
  };

  describe('the issuer signature', () => {
    it('rejects a credential signed by another key under our kid (forged signature)', async () => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const { jwt, disclosures } = splitSdJwt(sdjwt);
      const [h, p] = jwt.split('.');
      const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const forged = `${signEs256(header, payload, privateKey)}~${disclosures.join('~')}~`;
      expect(await reasonFor(forged)).toBe('bad_signature');
    });

    it('rejects a payload changed after signing', async () => {
      const { jwt, disclosures } = splitSdJwt(sdjwt);
      const [h, p, s] = jwt.split('.');
      const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
      payload.sub = 'did:web:mallory.example';
      expect(await reasonFor(`${h}.${b64urlJson(payload)}.${s}~${disclosures.join('~')}~`)).toBe(
        'bad_signature',
      );
    });

    it.each([
      ['none', ''],
      ['HS256', 'c2lnbmF0dXJl'],
      ['RS256', 'c2lnbmF0dXJl'],
      ['ES512', 'c2lnbmF0dXJl'],
    ])('rejects alg %s', async (alg, signature) => {
      const { jwt, disclosures } = splitSdJwt(sdjwt);
      const [h, p] = jwt.split('.');
      const header = { ...JSON.parse(Buffer.from(h!, 'base64url').toString()), alg };
      const token = `${b64urlJson(header)}.${p}.${signature}~${disclosures.join('~')}~`;
      expect(await reasonFor(token)).toBe('unsupported_alg');
    });

    it('rejects a wrong typ, an unknown kid, another issuer and garbage', async () => {
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (h) => {
            h.typ = 'JWT';
          }),
        ),
      ).toBe('wrong_typ');
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (h) => {
            h.kid = `${h.kid}x`;
          }),
        ),
      ).toBe('unknown_key');
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (_, p) => {
            p.iss = 'did:web:other.example';
          }),
        ),
      ).toBe('unknown_issuer');
      for (const junk of ['abc', 'a.b.c~', '~~~', `${'x'.repeat(100)}.${'y'.repeat(10)}`])
        expect(await reasonFor(junk)).toBe('malformed');
    });
  });

  describe('the disclosures', () => {
    it('rejects a tampered disclosure', async () => {
      const { jwt, disclosures } = splitSdJwt(sdjwt);
      const decoded = JSON.parse(Buffer.from(disclosures[0]!, 'base64url').toString());
      const tampered = objectDisclosure(decoded[1], 'mallory@evil.example', decoded[0]);
      expect(await reasonFor(`${jwt}~${tampered}~${disclosures[1]}~`)).toBe('disclosure_unreferenced');
    });

    it('rejects a duplicated disclosure', async () => {
      const { jwt, disclosures } = splitSdJwt(sdjwt);
      expect(await reasonFor(`${jwt}~${disclosures[0]}~${disclosures[0]}~`)).toBe('disclosure_duplicate');
    });

    it('rejects a disclosure that would override a signed claim, and one of a claim that must stay clear', async () => {
      const withName = await resign(svc, sdjwt, (_, p) => {
        p.name = 'Signed Name';
      });
      expect(await reasonFor(withName)).toBe('disclosure_override');
      const vct = objectDisclosure('vct', 'https://evil.example/vc');
      const digest = digestOf(vct);
      const sneaky = await resign(svc, sdjwt, (_, p) => {
        delete p.vct;
        (p._sd as string[]).push(digest);
      });
      expect(await reasonFor(`${sneaky}${vct}~`)).toBe('disclosure_forbidden');
    });
  });

  describe('time and status', () => {
    it('rejects an expired credential, and one not valid yet', async () => {
      const now = Math.floor(Date.now() / 1000);
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (_, p) => {
            p.exp = now - 3600;
          }),
        ),
      ).toBe('expired');
      // Within the clock skew it still passes.
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (_, p) => {
            p.exp = now - 10;
          }),
        ),
      ).toBe('valid');
      expect(
        await reasonFor(
          await resign(svc, sdjwt, (_, p) => {
            p.nbf = now + 3600;
          }),
        ),
      ).toBe('not_yet_valid');
    });

    it('rejects a credential whose status points outside our status lists', async () => {
      const elsewhere = await resign(svc, sdjwt, (_, p) => {
        p.status = { status_list: { idx: 1, uri: 'https://evil.example/status/1' } };
      });
      expect(await reasonFor(elsewhere)).toBe('status_unknown');
    });
  });

  describe('key binding', () => {
    let holder: Holder;
    let bound: string;
    beforeAll(async () => {
      holder = newHolder();
      bound = await walletCredential(svc, person.cookie, holder);
    });

    it('accepts a fresh Key Binding JWT for the nonce and audience asked for', async () => {
      const token = present(bound, holder, { nonce: 'n-1', aud: 'https://rp.example' });
      expect(await reasonFor(token, { nonce: 'n-1', aud: 'https://rp.example' })).toBe('valid');
    });

    it('rejects a wrong nonce, a wrong audience, a stale iat and a wrong sd_hash', async () => {
      expect(await reasonFor(present(bound, holder, { nonce: 'other' }), { nonce: 'n-2' })).toBe(
        'nonce_mismatch',
      );
      expect(
        await reasonFor(present(bound, holder, { nonce: 'n-3', aud: 'https://a.example' }), {
          nonce: 'n-3',
          aud: 'https://b.example',
        }),
      ).toBe('audience_mismatch');
      const stale = Math.floor(Date.now() / 1000) - 3600;
      expect(await reasonFor(present(bound, holder, { nonce: 'n-4', iat: stale }), { nonce: 'n-4' })).toBe(
        'key_binding_stale',
      );
      expect(await reasonFor(present(bound, holder, { nonce: 'n-5', sd_hash: 'x' }), { nonce: 'n-5' })).toBe(
        'sd_hash_mismatch',
      );
    });

    it('rejects a replayed Key Binding JWT', async () => {
      const token = present(bound, holder, { nonce: 'n-replay' });
      expect(await reasonFor(token, { nonce: 'n-replay' })).toBe('valid');
      expect(await reasonFor(token, { nonce: 'n-replay' })).toBe('key_binding_replayed');
    });

    it('accepts exactly one of several simultaneous presentations of one Key Binding JWT', async () => {
      const token = present(bound, holder, { nonce: 'n-race' });
      const reasons = await Promise.all([1, 2, 3, 4].map(() => reasonFor(token, { nonce: 'n-race' })));
      expect(reasons.sort()).toEqual([
        'key_binding_replayed',
        'key_binding_replayed',
        'key_binding_replayed',
        'valid',
      ]);
    });

    it('rejects a Key Binding JWT signed by another key, or of the wrong typ, and a missing one', async () => {
      expect(await reasonFor(present(bound, newHolder(), { nonce: 'n-6' }), { nonce: 'n-6' })).toBe(
        'key_binding_invalid',
      );
      expect(
        await reasonFor(present(bound, holder, { nonce: 'n-7' }, { typ: 'JWT' }), { nonce: 'n-7' }),
      ).toBe('key_binding_invalid');
      expect(await reasonFor(bound, { nonce: 'n-8' })).toBe('key_binding_missing');
    });

    it('refuses key binding for a credential bound to no key', async () => {
      expect(await reasonFor(present(sdjwt, holder, { nonce: 'n-9' }), { nonce: 'n-9' })).toBe(
        'key_binding_unsupported',
      );
    });

    it('rejects a bound credential once it is revoked, however good its key binding', async () => {
      const page = await (
        await svc.fetch('/account/credentials', { headers: { cookie: person.cookie } })
      ).text();
      const ids = [...page.matchAll(/name="id" value="(vc_[0-9a-z]+)"/g)].map((m) => m[1]!);
      expect(ids.length).toBeGreaterThanOrEqual(2);
      for (const id of ids)
        expect((await postJson(svc, '/api/did/revoke', { id }, person.cookie)).status).toBe(200);
      expect(await reasonFor(present(bound, holder, { nonce: 'n-10' }), { nonce: 'n-10' })).toBe('revoked');
    });
  });
});
