import { describe, expect, it } from 'vitest';
import disclosureFixtures from './fixtures/rfc9901-disclosures.json' with { type: 'json' };
import example from './fixtures/rfc9901-example.json' with { type: 'json' };
import type { JsonObject } from './jws.js';
import { digestOf, discloseClaims, packDisclosures, SdJwtError, splitSdJwt } from './sd-jwt.js';

type DisclosureName = keyof typeof example.disclosures;
const pick = (names: string[]) => names.map((n) => example.disclosures[n as DisclosureName]);

function reasonOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof SdJwtError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('RFC 9901 Disclosures', () => {
  it.each(disclosureFixtures.cases)('$section: decodes and hashes as the RFC shows', (fixture) => {
    expect(JSON.parse(Buffer.from(fixture.disclosure, 'base64url').toString('utf8'))).toEqual(
      fixture.decoded,
    );
    expect(digestOf(fixture.disclosure)).toBe(fixture.digest);
  });
});

describe('RFC 9901 section 5.1 example, replayed', () => {
  it.each(example.presentations)('discloses $title', ({ disclose, expected }) => {
    const claims = discloseClaims(example.payload as JsonObject, pick(disclose));
    expect(claims).toEqual(expected);
  });

  it.each(example.rejections)('rejects $title', (rejection) => {
    const patch: JsonObject = rejection.payloadPatch ?? {};
    const payload: JsonObject = { ...(example.payload as JsonObject), ...patch };
    if (Array.isArray(patch._sd)) payload._sd = [...example.payload._sd, ...patch._sd];
    const disclosures = [...pick(rejection.disclose), ...(rejection.extra ?? [])];
    expect(reasonOf(() => discloseClaims(payload, disclosures))).toBe(rejection.reason);
  });

  it('refuses a Disclosure of a claim that must stay in the clear (iss, vct, cnf, status)', () => {
    const { payload, disclosures } = packDisclosures({ iss: 'did:web:mallory', name: 'x' }, ['iss']);
    expect(reasonOf(() => discloseClaims(payload, disclosures, ['iss', 'vct', 'cnf', 'status']))).toBe(
      'disclosure_forbidden',
    );
  });

  it('refuses _sd and ... as disclosed claim names', () => {
    for (const name of ['_sd', '...']) {
      const { payload, disclosures } = packDisclosures({ [name]: 'x' }, [name]);
      expect(reasonOf(() => discloseClaims(payload, disclosures))).toBe('disclosure_invalid');
    }
  });
});

describe('packing our own credentials', () => {
  it('round-trips flat and nested claims and hides them from the signed payload', () => {
    const claims = { vct: 'x', email: 'a@b.c', name: 'Ann', claims: { tier: 'gold', seats: 5 } };
    const { payload, disclosures } = packDisclosures(claims, ['email', 'name'], ['claims']);
    expect(JSON.stringify(payload)).not.toContain('a@b.c');
    expect(JSON.stringify(payload)).not.toContain('gold');
    expect(payload._sd_alg).toBe('sha-256');
    expect(disclosures).toHaveLength(4);
    expect(discloseClaims(payload, disclosures)).toEqual(claims);
  });

  it('splits a presentation and keeps what sd_hash covers', () => {
    expect(splitSdJwt('a.b.c~d1~d2~')).toEqual({
      jwt: 'a.b.c',
      disclosures: ['d1', 'd2'],
      kbJwt: undefined,
      presentation: 'a.b.c~d1~d2~',
    });
    expect(splitSdJwt('a.b.c~d1~k.b.j')).toMatchObject({ kbJwt: 'k.b.j', presentation: 'a.b.c~d1~' });
    expect(splitSdJwt('a.b.c')).toMatchObject({ jwt: 'a.b.c', disclosures: [], presentation: 'a.b.c~' });
    expect(() => splitSdJwt('a.b.c~~d~')).toThrow(SdJwtError);
  });
});
