import type { IdentitySession } from '@xv/platform';
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { signIn, signUp, startIdentity } from '../src/testing/index.js';
import { email, location, postForm, setCookie, signUpAdmin } from './helpers.js';

describeEachDatabase('registration, login, session and logout', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  it('registration creates the organization and its admin, sets xv_session and goes to /account', async () => {
    const address = email('reg');
    const response = await postForm(svc, '/api/auth/register', {
      email: address,
      password: 'secret1',
      name: 'Ada Lovelace',
      orgName: 'Analytical Engines',
    });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/account');
    const cookie = setCookie(response, 'xv_session')!;
    expect(cookie).toMatch(/^xv_session=xss_/);
    const session = (await (
      await svc.fetch('/api/session', { headers: { cookie } })
    ).json()) as IdentitySession;
    expect(session).toEqual({
      authenticated: true,
      realmId: 'default',
      user: {
        id: expect.stringMatching(/^usr_/),
        email: address,
        name: 'Ada Lovelace',
        avatar_color: expect.stringMatching(/^#[0-9a-f]{6}$/),
      },
      memberships: [
        {
          org_id: expect.stringMatching(/^org_/),
          org_name: 'Analytical Engines',
          role: 'admin',
          permissions: expect.arrayContaining(['review:decide', 'members:manage']),
        },
      ],
      amr: ['pwd'],
      aal: 'AAL1',
    });
  });

  it.each([
    ['email', { password: 'secret1', name: 'A', orgName: 'O' }],
    ['password', { email: 'x@example.test', name: 'A', orgName: 'O' }],
    ['name', { email: 'x@example.test', password: 'secret1', orgName: 'O' }],
    ['orgName', { email: 'x@example.test', password: 'secret1', name: 'A' }],
  ])('registration without %s answers 303 with error=invalid', async (_field, fields) => {
    const response = await postForm(svc, '/api/auth/register', fields);
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/register?error=invalid');
    expect(setCookie(response, 'xv_session')).toBeUndefined();
  });

  it('registration refuses a password shorter than 6 characters and a malformed e-mail', async () => {
    for (const fields of [
      { email: email(), password: '12345', name: 'A', orgName: 'O' },
      { email: 'not-an-email', password: '123456', name: 'A', orgName: 'O' },
    ]) {
      const response = await postForm(svc, '/api/auth/register', fields);
      expect(location(response)).toBe('/register?error=invalid');
    }
    const ok = await postForm(svc, '/api/auth/register', {
      email: email(),
      password: '123456',
      name: 'A',
      orgName: 'O',
    });
    expect(location(ok)).toBe('/account');
  });

  it('registration with an e-mail already registered answers error=exists, whatever its case', async () => {
    const address = email('dup');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'A', orgName: 'One' });
    const response = await postForm(svc, '/api/auth/register', {
      email: address.toUpperCase(),
      password: 'secret2',
      name: 'B',
      orgName: 'Two',
    });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/register?error=exists');
  });

  it('login with the right password sets a new session and goes to /account', async () => {
    const address = email('login');
    const first = await signUp(svc.url, { email: address, password: 'secret1', name: 'A', orgName: 'O' });
    const response = await postForm(svc, '/api/auth/login', { email: address, password: 'secret1' });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/account');
    const cookie = setCookie(response, 'xv_session')!;
    expect(cookie).not.toBe(first.cookie);
    const session = await (await svc.fetch('/api/session', { headers: { cookie } })).json();
    expect(session).toMatchObject({
      authenticated: true,
      amr: ['pwd'],
      aal: 'AAL1',
      user: { email: address },
    });
  });

  it('login goes to a validated redirect target, and ignores a hostile one', async () => {
    const address = email('redir');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'A', orgName: 'O' });
    const good = await postForm(svc, '/api/auth/login', {
      email: address,
      password: 'secret1',
      redirect: 'http://localhost:4002/review?x=1',
    });
    expect(location(good)).toBe('http://localhost:4002/review?x=1');
    const bad = await postForm(svc, '/api/auth/login', {
      email: address,
      password: 'secret1',
      redirect: 'https://evil.test/',
    });
    expect(location(bad)).toBe('/account');
  });

  it('login with a wrong password or an unknown e-mail answers 303 error=1 alike', async () => {
    const address = email('wrong');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'A', orgName: 'O' });
    const wrong = await postForm(svc, '/api/auth/login', { email: address, password: 'nope-nope' });
    const unknown = await postForm(svc, '/api/auth/login', { email: email('ghost'), password: 'nope-nope' });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(303);
      expect(location(response)).toBe('/login?error=1');
      expect(setCookie(response, 'xv_session')).toBeUndefined();
    }
    const missing = await postForm(svc, '/api/auth/login', { email: address });
    expect(location(missing)).toBe('/login?error=1');
  });

  it('login in another realm does not find a user of the default realm', async () => {
    const address = email('realm');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'A', orgName: 'O' });
    const response = await postForm(svc, '/api/auth/login', {
      email: address,
      password: 'secret1',
      realm: 'other',
    });
    expect(location(response)).toBe('/login?error=1&realm=other');
  });

  it('GET /api/session answers 401 {authenticated:false} without a session, or with an unknown one', async () => {
    for (const headers of [{}, { cookie: 'xv_session=xss_forged' }, { cookie: 'xv_session=' }] as Record<
      string,
      string
    >[]) {
      const response = await svc.fetch('/api/session', { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ authenticated: false });
    }
  });

  it('logout ends the session server-side, clears xv_session and xv_org, and goes to /login', async () => {
    const { cookie } = await signUpAdmin(svc.url, { email: email('out') });
    const response = await svc.fetch('/api/auth/logout', {
      method: 'POST',
      headers: { cookie },
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/login');
    const cleared = response.headers.getSetCookie();
    expect(cleared.some((l) => l.startsWith('xv_session=;') && /Max-Age=0/i.test(l))).toBe(true);
    expect(cleared.some((l) => l.startsWith('xv_org=;') && /Max-Age=0/i.test(l))).toBe(true);
    expect((await svc.fetch('/api/session', { headers: { cookie } })).status).toBe(401);
  });

  it('signIn of the testing helpers returns the session of the person', async () => {
    const address = email('helper');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'Helper', orgName: 'O' });
    const { session } = await signIn(svc.url, address, 'secret1');
    expect(session.user.name).toBe('Helper');
  });

  it('a JSON body is not the registration form: 303 error=invalid', async () => {
    const response = await svc.fetch('/api/auth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: email(), password: 'secret1', name: 'A', orgName: 'O' }),
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    expect(location(response)).toBe('/register?error=invalid');
  });
});
