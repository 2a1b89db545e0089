/**
 * The /account/credentials pages over HTTP: issuing is post-redirect-get (a reload of the result
 * never issues again; the result is read by an id only its owner can open), the issued
 * credential's claims are shown decoded with copy buttons, and the wallet QR code holds the short
 * by-reference offer URI.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { type SignedIn, signUp } from '../src/testing/index.js';
import { startCredentialIdentity, verify } from './credentials-helpers.js';
import { email, location, postForm, postJson } from './helpers.js';

describeEachDatabase('the /account/credentials pages', (target) => {
  let svc: RunningService;
  let person: SignedIn;
  let stranger: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('page'),
      password: 'secret1',
      name: 'Pat',
      orgName: 'Page Org',
    });
    stranger = await signUp(svc.url, {
      email: email('other'),
      password: 'secret1',
      name: 'Sam',
      orgName: 'S',
    });
  });

  const page = (html: string) => html.replace(/\s+/g, ' ');
  const get = async (path: string, cookie = person.cookie) => {
    const response = await svc.fetch(path, { headers: { cookie }, redirect: 'manual' });
    return { status: response.status, html: await response.text(), response };
  };
  const listedIds = async () =>
    [...(await get('/account/credentials')).html.matchAll(/name="id" value="(vc_[0-9a-z]+)"/g)].map(
      (m) => m[1],
    );
  const unescapeHtml = (text: string) =>
    text.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

  it('sends a visitor without a session to the login page, and back here afterwards', async () => {
    const response = await svc.fetch('/account/credentials', { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/login?redirect=%2Faccount%2Fcredentials');
  });

  it('issues with post-redirect-get: 303 to a result page that a reload reads, never issuing again', async () => {
    const before = await listedIds();
    const posted = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: 'IdentityCredential' },
      person.cookie,
    );
    expect(posted.status).toBe(303);
    const target = location(posted);
    expect(target).toMatch(/^\/account\/credentials\/vc_[0-9a-z]{26}\?notice=issued$/);
    const first = await get(target);
    const reload = await get(target);
    expect(first.status).toBe(200);
    expect(first.response.headers.get('cache-control')).toBe('no-store');
    const sdjwt = (html: string) =>
      html.match(/<textarea[^>]*id="sdjwt"[^>]*>\s*([^<\s]+)\s*<\/textarea>/)?.[1];
    expect(sdjwt(first.html)).toBeTruthy();
    expect(sdjwt(reload.html)).toBe(sdjwt(first.html));
    expect((await verify(svc, { token: sdjwt(first.html) })).body.valid).toBe(true);
    expect(page(first.html)).toContain('Credential issued.');
    // One more credential than before, however often the result is loaded.
    expect((await listedIds()).length).toBe(before.length + 1);
  });

  it('shows the claims decoded, disclosures included, with a copy button per value and for the SD-JWT', async () => {
    const posted = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: 'IdentityCredential' },
      person.cookie,
    );
    const html = page((await get(location(posted))).html);
    const row = (name: string) =>
      html.match(
        new RegExp(
          `<th scope="row"><code>${name}</code></th> ?<td class="value">([^<]*)</td> ?<td>([^<]*)</td>`,
        ),
      );
    expect(row('email')?.slice(1)).toEqual([person.session.user.email, 'only if you choose']);
    expect(row('name')?.slice(1)).toEqual(['Pat', 'only if you choose']);
    expect(row('iss')?.[1]).toMatch(/^did:web:/);
    expect(row('iss')?.[2]).toBe('always');
    expect(row('vct')?.[1]).toBe(`${svc.url}/vc/IdentityCredential`);
    expect(html).toContain('data-copy="Pat"');
    expect(unescapeHtml(html)).toContain(`data-copy="${person.session.user.email}"`);
    expect(html).toMatch(
      /<button type="button" class="secondary copy" aria-label="Copy the SD-JWT" data-copy-from="sdjwt">/,
    );
    // The shell with the viewer, and the copy script from a bundle with the response's nonce (no inline JS).
    expect(html).toMatch(/<script type="module" src="\/assets\/credentials-[^"]+\.js" nonce="[^"]+"/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(html).not.toMatch(/\son[a-z]+="/);
    expect(html).toContain('Pat');
  });

  it('shows a credential only to its owner: another person gets 404 and no SD-JWT', async () => {
    const posted = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: 'IdentityCredential' },
      person.cookie,
    );
    const path = location(posted).split('?')[0]!;
    const foreign = await get(path, stranger.cookie);
    expect(foreign.status).toBe(404);
    expect(foreign.html).not.toContain('id="sdjwt"');
    expect(foreign.html).not.toContain(person.session.user.email);
    for (const bad of ['/account/credentials/vc_nope', '/account/credentials/%27%3Cx%3E']) {
      expect((await get(bad)).status).toBe(404);
    }
    const anonymous = await svc.fetch(path, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
  });

  it('shows a credential issued through the API without an SD-JWT (it was never kept)', async () => {
    const issued = await (
      await postJson(svc, '/api/did/issue', { type: 'IdentityCredential' }, person.cookie)
    ).json();
    const shown = await get(`/account/credentials/${issued.id}`);
    expect(shown.status).toBe(200);
    expect(shown.html).not.toContain('id="sdjwt"');
    expect(page(shown.html)).toContain('its SD-JWT is with its holder');
    expect(shown.html).toContain('<dd>Pat</dd>');
  });

  it('lets an organization admin read an attestation of their organization', async () => {
    const orgId = person.session.memberships[0]!.org_id;
    const posted = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: `OrganizationAttestation:${orgId}` },
      person.cookie,
    );
    expect(posted.status).toBe(303);
    const shown = page((await get(location(posted))).html);
    expect(shown).toContain('<code>org_id</code>');
    expect((await get(location(posted), stranger.cookie)).status).toBe(404);
  });

  it('revokes with post-redirect-get', async () => {
    const id = (await listedIds())[0]!;
    const response = await postForm(svc, '/account/credentials/revoke', { id }, person.cookie);
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/account/credentials?notice=revoked');
    const html = page((await get(location(response))).html);
    expect(html).toContain('Credential revoked.');
    expect(html).toContain('>revoked<');
    expect(await listedIds()).not.toContain(id);
  });

  it('shows a wallet offer as a small QR code of the by-reference URI, with its PIN', async () => {
    const orgId = person.session.memberships[0]!.org_id;
    const response = await postForm(
      svc,
      '/account/credentials/offer',
      { credential: `MembershipCredential:${orgId}`, pin: '1' },
      person.cookie,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<div class="qr" role="img" aria-label="[^"]+"><svg/);
    expect(html).toMatch(/<strong id="offer-pin">\d{4}<\/strong>/);
    expect(html).toContain('href="openid-credential-offer://?credential_offer_uri=');
    expect(html).not.toContain('credential_offer=');
    // A by-reference URI fits QR version 8 (49 modules, and a margin of 2 each side); the by-value
    // offer needs version 16 (81 modules).
    const modules = Number(html.match(/<svg[^>]*viewBox="0 0 (\d+) \1"/)?.[1]);
    expect(modules).toBeLessThanOrEqual(49 + 4);
  });

  it('answers a hostile form with a 4xx page, not an error', async () => {
    const bad = await postForm(svc, '/account/credentials/issue', { credential: 'Nope' }, person.cookie);
    expect(bad.status).toBe(400);
    const foreign = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: 'OrganizationAttestation:org_00000000000000000000000000' },
      person.cookie,
    );
    expect(foreign.status).toBe(403);
    const other = await postForm(svc, '/account/credentials/revoke', { id: 'vc_nope' }, person.cookie);
    expect(other.status).toBe(404);
  });
});
