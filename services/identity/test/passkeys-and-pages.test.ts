import { newId } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createRealm } from '../src/accounts/repository.js';
import type { IdentityDb } from '../src/db.js';
import { signIn, signUp, startIdentity } from '../src/testing/index.js';
import { email, location, postForm, postJson } from './helpers.js';

const fakeCredential = (id: string) => ({
  id,
  rawId: id,
  type: 'public-key',
  response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0', authenticatorData: 'AA', signature: 'AA' },
});

describeEachDatabase('passkey endpoints', (target) => {
  let svc: RunningService;
  let person: Awaited<ReturnType<typeof signUp>>;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    person = await signUp(svc.url, { email: email('pk'), password: 'secret1', name: 'P', orgName: 'O' });
  });

  it('registration options name this relying party and the user, and need a session', async () => {
    const response = await postJson(
      svc,
      '/api/auth/passkey/register/options',
      { password: 'secret1' },
      person.cookie,
    );
    expect(response.status).toBe(200);
    const options = await response.json();
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'XV' },
      user: { name: person.session.user.email, displayName: 'P' },
      authenticatorSelection: { userVerification: 'required', residentKey: 'required' },
      challenge: expect.any(String),
    });
    expect((await postJson(svc, '/api/auth/passkey/register/options', {})).status).toBe(401);
  });

  it('sign-in options are open to anyone (discoverable passkeys) and carry a fresh challenge each time', async () => {
    const a = await (await postJson(svc, '/api/auth/passkey/login/options', {})).json();
    const b = await (await postJson(svc, '/api/auth/passkey/login/options', {})).json();
    expect(a).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(a.challenge).not.toBe(b.challenge);
  });

  it('a forged or unknown credential is refused with 400 passkey_rejected, never a session', async () => {
    const response = await postJson(svc, '/api/auth/passkey/login/verify', {
      response: fakeCredential('AAAA'),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'passkey_rejected' });
    expect(response.headers.getSetCookie()).toEqual([]);
    const registration = await postJson(
      svc,
      '/api/auth/passkey/register/verify',
      {
        response: { ...fakeCredential('BBBB'), response: { clientDataJSON: 'e30', attestationObject: 'AA' } },
      },
      person.cookie,
    );
    expect(registration.status).toBe(400);
  });

  it('malformed passkey bodies are 400 invalid_request', async () => {
    for (const body of [
      {},
      { response: 'x' },
      { response: { id: 'a' } },
      { response: { ...fakeCredential('a'), type: 'password' } },
    ]) {
      const response = await postJson(svc, '/api/auth/passkey/login/verify', body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('lists no passkeys for a new user, and deleting someone else’s is 404', async () => {
    expect(
      await (await svc.fetch('/api/auth/passkeys', { headers: { cookie: person.cookie } })).json(),
    ).toEqual({ passkeys: [] });
    const response = await svc.fetch('/api/auth/passkeys/abc', {
      method: 'DELETE',
      headers: { cookie: person.cookie },
    });
    expect(response.status).toBe(404);
  });
});

describeEachDatabase('realms', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  it('the same e-mail is two users in two realms, and a session says its realm', async () => {
    const db = svc.context.database.kysely as IdentityDb;
    await createRealm(db, 'partners', 'Partners');
    const address = email('twice');
    const inDefault = await signUp(svc.url, {
      email: address,
      password: 'secret1',
      name: 'Default One',
      orgName: 'D',
    });
    // A user of the partners realm, created as an operator would (registration is for the default realm).
    const { hashPassword } = await import('../src/accounts/passwords.js');
    const { createUser } = await import('../src/accounts/repository.js');
    const partner = await createUser(db, {
      realmId: 'partners',
      email: address,
      name: 'Partner One',
      passwordHash: await hashPassword('other-pw'),
    });
    expect(partner.id).not.toBe(inDefault.session.user.id);
    const session = await signIn(svc.url, address, 'other-pw', { realm: 'partners' });
    expect(session.session).toMatchObject({
      realmId: 'partners',
      user: { id: partner.id, name: 'Partner One' },
      memberships: [],
    });
    // The default realm's password does not open the partners account, nor the other way round.
    expect(
      location(
        await postForm(svc, '/api/auth/login', { email: address, password: 'secret1', realm: 'partners' }),
      ),
    ).toMatch(/error=1/);
    expect(
      location(await postForm(svc, '/api/auth/login', { email: address, password: 'other-pw' })),
    ).toMatch(/error=1/);
  });

  it('an admin cannot add a user of another realm', async () => {
    const db = svc.context.database.kysely as IdentityDb;
    const { createUser } = await import('../src/accounts/repository.js');
    const stranger = email('stranger');
    await createUser(db, { realmId: 'partners', email: stranger, name: 'S', passwordHash: newId('x') });
    const admin = await signUp(svc.url, {
      email: email('adm'),
      password: 'secret1',
      name: 'A',
      orgName: 'A',
    });
    expect(
      (await postJson(svc, '/api/org/members', { email: stranger, role: 'member' }, admin.cookie)).status,
    ).toBe(404);
  });
});

describeEachDatabase('pages', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });
  const page = (path: string, cookie?: string) =>
    svc.fetch(path, { redirect: 'manual', headers: cookie ? { cookie } : {} });

  it('/login, /register show labelled forms posting to the spec endpoints, with their errors', async () => {
    const login = await (await page('/login?error=1')).text();
    expect(login).toContain('action="/api/auth/login"');
    expect(login).toContain('<label for="email">');
    expect(login).toContain('role="alert"');
    const register = await (await page('/register?error=exists')).text();
    expect(register).toContain('action="/api/auth/register"');
    expect(register).toContain('already exists');
    // Only the service's own bundles, no other site's.
    for (const [, src] of register.matchAll(/<script[^>]+src="([^"]+)"/g)) expect(src).toMatch(/^\/assets\//);
  });

  it('/login escapes what it echoes and drops a disallowed redirect', async () => {
    const html = await (
      await page(`/login?redirect=${encodeURIComponent('https://evil.test/"><script>x</script>')}`)
    ).text();
    // The language switch returns to this very address (percent-encoded, to this service's /lang); the
    // page itself, its form included, carries nothing of the refused redirect.
    const page_ = html.replace(/<nav aria-label="Language"[\s\S]*?<\/nav>/, '');
    expect(page_).not.toContain('evil.test');
    expect(html).not.toContain('<script>x');
    const safe = await (await page(`/login?redirect=${encodeURIComponent('/account?a="b"')}`)).text();
    expect(safe).toContain('value="/account?a=%22b%22"');
  });

  it('/login/2fa without a pending challenge and /account without a session send to /login', async () => {
    expect(location(await page('/login/2fa'))).toBe('/login?error=expired');
    const account = await page('/account');
    expect(account.status).toBe(303);
    expect(location(account)).toBe('/login?redirect=%2Faccount');
  });

  it('/account shows the profile, organizations and role, 2FA, passkeys, service clients and sign-out', async () => {
    const { cookie } = await signUp(svc.url, {
      email: email('acct'),
      password: 'secret1',
      name: 'Ada <b>',
      orgName: 'Org & Co',
    });
    const html = await (await page('/account', cookie)).text();
    expect(html).toContain('Ada &lt;b&gt;');
    expect(html).toContain('Org &amp; Co');
    expect(html).toContain('admin');
    for (const text of [
      'Set up 2FA',
      'Add a passkey',
      'Service clients',
      'action="/api/auth/logout"',
      'href="/account/credentials"',
    ])
      expect(html).toContain(text);
  });

  it('/account?stepup=… leads to enrolment and offers the way back', async () => {
    const { cookie } = await signUp(svc.url, {
      email: email('st'),
      password: 'secret1',
      name: 'S',
      orgName: 'O',
    });
    const redirect = encodeURIComponent('http://localhost:4003/seal');
    const wants3 = await (await page(`/account?stepup=AAL3&redirect=${redirect}`, cookie)).text();
    expect(wants3).toContain('A stronger sign-in is needed (AAL3)');
    expect(wants3).toContain('Add a passkey below');
    const met = await (await page(`/account?stepup=AAL1&redirect=${redirect}`, cookie)).text();
    expect(met).toContain(`href="/step-up?aal=AAL1&amp;redirect=${redirect}"`);
  });
});
