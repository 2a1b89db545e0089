/**
 * Open redirects: every place the identity service sends a browser to a target it was given (`/step-up`, the
 * login page and form, the 2FA step, passkey sign-in) follows it only to an XV origin, whatever encoding trick
 * the target uses.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { enableTotp, signUp, startIdentity, totpCode } from '../src/testing/index.js';
import { email, location, PASSWORD, postForm, setCookie } from './helpers.js';

/** Targets that lead away from XV (to `evil.test`) or run script, in the forms browsers and servers "repair". */
const HOSTILE = [
  '//evil.test',
  '///evil.test',
  '//evil.test/%2f..',
  '/\\evil.test',
  '/./\\evil.test',
  '/.//evil.test',
  '/././/evil.test',
  '/..//evil.test',
  '/.%2f/evil.test',
  '/%2f%2fevil.test',
  '/%2F%2Fevil.test',
  '%2f%2fevil.test',
  '/%252f%252fevil.test',
  '/%25252f%25252fevil.test',
  '/%5cevil.test',
  '/%5c%5cevil.test',
  '/%255cevil.test',
  '\\\\evil.test',
  '\\/evil.test',
  'https:evil.test',
  'https:/evil.test',
  'https:\\\\evil.test',
  '/\t/evil.test',
  '/\n/evil.test',
  '/\r\n//evil.test',
  '\t//evil.test',
  '/%09/evil.test',
  '/%0d%0a//evil.test',
  ' //evil.test',
  'java\tscript:alert(1)',
  'https://evil.test',
  'https://localhost.evil.test/',
  'https://localhost@evil.test/',
  'https://localhost%40evil.test/',
  'user@evil.test',
  '//user@evil.test',
  'https://user:pass@localhost:4002/',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  '%6a%61%76%61%73%63%72%69%70%74:alert(1)',
  'javascript%3Aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'https%3A%2F%2Fevil.test',
  'https%253A%252F%252Fevil.test',
  'ftp://localhost/',
  'account',
];

/** Targets that are XV's own, on a localhost setup. */
const LEGIT = [
  '/account',
  '/account?tab=2',
  'http://localhost:4002/review',
  'http://localhost:4003/seal?x=1',
];

describeEachDatabase('open redirects', (target) => {
  let svc: RunningService;
  let shared: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    shared = await startIdentity(await target.open('identity'), { XV_SHARED_DOMAIN: 'example.com' });
  });

  const stepUp = (service: RunningService, redirect: string) =>
    service.fetch(`/step-up?${new URLSearchParams({ redirect })}`, { redirect: 'manual' });

  it('/step-up refuses every target of the corpus that leads off XV', async () => {
    for (const hostile of HOSTILE) {
      const response = await stepUp(svc, hostile);
      expect([hostile, response.status]).toEqual([hostile, 400]);
      expect(response.headers.get('location')).toBeNull();
    }
  });

  it('/step-up follows XV targets: own paths, localhost, and hosts under the shared domain', async () => {
    for (const legit of LEGIT) {
      const to = new URL(location(await stepUp(svc, legit)), svc.url);
      expect([legit, to.pathname, to.searchParams.get('redirect')]).toEqual([legit, '/login', legit]);
    }
    for (const legit of ['https://kb.example.com/x', 'https://example.com/', `${shared.url}/account`]) {
      const to = new URL(location(await stepUp(shared, legit)), shared.url);
      expect([legit, to.searchParams.get('redirect')]).toEqual([legit, legit]);
    }
    for (const hostile of [
      'https://example.com.evil.test/',
      'http://kb.example.com/',
      'https://evilexample.com/',
    ])
      expect((await stepUp(shared, hostile)).status).toBe(400);
  });

  it('the login form sends a person who signed in with a hostile target to their account instead', async () => {
    const address = email('redir');
    await signUp(svc.url, { email: address, password: PASSWORD, name: 'R', orgName: 'O' });
    for (const hostile of HOSTILE) {
      const response = await postForm(svc, '/api/auth/login', {
        email: address,
        password: PASSWORD,
        redirect: hostile,
      });
      expect([hostile, response.status, location(response)]).toEqual([hostile, 303, '/account']);
    }
    const good = await postForm(svc, '/api/auth/login', {
      email: address,
      password: PASSWORD,
      redirect: 'http://localhost:4002/review',
    });
    expect(location(good)).toBe('http://localhost:4002/review');
  });

  it('the login page does not carry a hostile target into its form', async () => {
    for (const hostile of HOSTILE) {
      const page = await (await svc.fetch(`/login?${new URLSearchParams({ redirect: hostile })}`)).text();
      expect([hostile, page.includes('name="redirect"')]).toEqual([hostile, false]);
    }
  });

  it('the 2FA step ends on the account page when the sign-in carried a hostile target', async () => {
    const address = email('redir2fa');
    const first = await signUp(svc.url, { email: address, password: PASSWORD, name: 'R', orgName: 'O' });
    const { secret } = await enableTotp(svc.url, first.cookie, PASSWORD);
    const login = await postForm(svc, '/api/auth/login', {
      email: address,
      password: PASSWORD,
      redirect: '/.//evil.test',
    });
    expect(location(login)).toBe('/login/2fa');
    const done = await postForm(
      svc,
      '/api/auth/2fa',
      { code: totpCode(secret, Date.now() + 30_000) },
      setCookie(login, 'xv_mfa'),
    );
    expect(location(done)).toBe('/account');
  });
});
