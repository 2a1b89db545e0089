import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { type SignedIn, signUp } from '../src/testing/index.js';
import { startCredentialIdentity, verify } from './credentials-helpers.js';
import { email, location, postForm } from './helpers.js';

describeEachDatabase('the /account/credentials page', (target) => {
  let svc: RunningService;
  let person: SignedIn;

  beforeAll(async () => {
    svc = await startCredentialIdentity(await target.open('identity'));
    person = await signUp(svc.url, {
      email: email('page'),
      password: 'secret1',
      name: 'Pat',
      orgName: 'Page Org',
    });
  });

  const page = (html: string) => html.replace(/\s+/g, ' ');

  it('sends a visitor without a session to the login page, and back here afterwards', async () => {
    const response = await svc.fetch('/account/credentials', { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/login?redirect=%2Faccount%2Fcredentials');
  });

  it('issues a credential from the form, shows its SD-JWT and lists it', async () => {
    const response = await postForm(
      svc,
      '/account/credentials/issue',
      { credential: 'IdentityCredential' },
      person.cookie,
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    const sdjwt = html.match(/<textarea[^>]*>\s*([^<\s]+)\s*<\/textarea>/)?.[1];
    expect(sdjwt).toBeTruthy();
    expect((await verify(svc, { token: sdjwt })).body.valid).toBe(true);
    const list = page(
      await (await svc.fetch('/account/credentials', { headers: { cookie: person.cookie } })).text(),
    );
    expect(list).toContain('<h1>Your credentials</h1>');
    expect(list).toMatch(/IdentityCredential<\/td>\s?<td>Pat &lt;/);
    expect(list).toContain('>valid<');
  });

  it('revokes from the list', async () => {
    const list = await (
      await svc.fetch('/account/credentials', { headers: { cookie: person.cookie } })
    ).text();
    const id = list.match(/name="id" value="(vc_[0-9a-z]+)"/)?.[1];
    expect(id).toBeTruthy();
    const response = await postForm(svc, '/account/credentials/revoke', { id: id! }, person.cookie);
    expect(response.status).toBe(200);
    const html = page(await response.text());
    expect(html).toContain('Credential revoked.');
    expect(html).toContain('>revoked<');
  });

  it('shows a wallet offer as an inline QR code with its PIN', async () => {
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
    expect(html).toContain('href="openid-credential-offer://?credential_offer=');
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)[^"']*\.(js|css)/);
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
