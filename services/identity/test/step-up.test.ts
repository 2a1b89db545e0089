import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { safeRedirect } from '../src/http/redirects.js';
import { enableTotp, signUp, startIdentity } from '../src/testing/index.js';
import { email, location } from './helpers.js';

const OWN = 'https://id.xv.test';
const allowed = (value: string) =>
  safeRedirect(value, { ownOrigin: OWN, allowedOrigins: [], sharedDomain: 'xv.test' });

describe('redirect targets', () => {
  it.each([
    ['https://kb.xv.test/review', 'https://kb.xv.test/review'],
    ['https://xv.test/', 'https://xv.test/'],
    ['https://a.b.xv.test:8443/x?y=1#z', 'https://a.b.xv.test:8443/x?y=1#z'],
    ['/account?tab=2', '/account?tab=2'],
  ])('accepts %s', (value, normalized) => {
    expect(allowed(value)).toBe(normalized);
  });

  it('accepts a loopback site only where it is an XV site: a configured service URL, or a localhost setup', () => {
    expect(allowed('http://localhost:4002/page')).toBeNull();
    const configured = { ownOrigin: OWN, allowedOrigins: ['http://localhost:4002'], sharedDomain: 'xv.test' };
    expect(safeRedirect('http://localhost:4002/page', configured)).toBe('http://localhost:4002/page');
    const local = { ownOrigin: 'http://localhost:4001', allowedOrigins: [], sharedDomain: 'localhost' };
    expect(safeRedirect('http://localhost:4002/page', local)).toBe('http://localhost:4002/page');
  });

  it.each([
    'https://evil.test/',
    'https://xv.test.evil.test/',
    'https://evilxv.test/',
    '//evil.test/',
    '///evil.test/',
    '/\\evil.test/',
    '\\\\evil.test',
    'https:evil.test',
    'https:/evil.test',
    'https://xv.test@evil.test/',
    'https://user:pass@kb.xv.test/',
    'https://evil.test\\@kb.xv.test/',
    'https://evil.test#@kb.xv.test',
    'https://evil.test?.xv.test',
    'javascript:alert(1)',
    'JaVaScRiPt://kb.xv.test/%0aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'ftp://kb.xv.test/',
    'http://kb.xv.test/',
    ' https://kb.xv.test/',
    'https://kb.xv.test/\n',
    '\t//evil.test',
    'https://kb.xv.test%2f@evil.test/',
    'https://evil.test%00.xv.test/',
    'https://xn--xv-evil.test/',
    '',
    'x'.repeat(3000),
  ])('refuses %j', (value) => {
    expect(allowed(value)).toBeNull();
  });

  it('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, ['https://kb.xv.test/'], {}])
      expect(allowed(value as never)).toBeNull();
  });
});

describeEachDatabase('GET /step-up', (target) => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });
  const stepUp = (query: string, cookie?: string) =>
    svc.fetch(`/step-up?${query}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const back = encodeURIComponent('http://localhost:4003/seal?x=1');

  it('without a session: 302 to /login with the wanted level (default AAL2) and the redirect', async () => {
    const response = await stepUp(`redirect=${back}`);
    expect(response.status).toBe(302);
    const to = new URL(location(response), svc.url);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('aal')).toBe('AAL2');
    expect(to.searchParams.get('redirect')).toBe('http://localhost:4003/seal?x=1');
  });

  it('a session already at the level: 302 straight to the redirect', async () => {
    const { cookie } = await signUp(svc.url, {
      email: email('s'),
      password: 'secret1',
      name: 'S',
      orgName: 'O',
    });
    const response = await stepUp(`redirect=${back}&aal=AAL1`, cookie);
    expect(response.status).toBe(302);
    expect(location(response)).toBe('http://localhost:4003/seal?x=1');
  });

  it('a session below the level: 302 to /login with aal and redirect', async () => {
    const { cookie } = await signUp(svc.url, {
      email: email('s'),
      password: 'secret1',
      name: 'S',
      orgName: 'O',
    });
    const response = await stepUp(`redirect=${back}&aal=AAL3`, cookie);
    const to = new URL(location(response), svc.url);
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('aal')).toBe('AAL3');
  });

  it('an AAL2 session passes an AAL2 step-up but not an AAL3 one', async () => {
    const first = await signUp(svc.url, { email: email('s2'), password: 'secret1', name: 'S', orgName: 'O' });
    const { cookie } = await enableTotp(svc.url, first.cookie, 'secret1');
    expect(location(await stepUp(`redirect=${back}&aal=AAL2`, cookie))).toBe(
      'http://localhost:4003/seal?x=1',
    );
    expect(location(await stepUp(`redirect=${back}&aal=AAL3`, cookie))).toMatch(/^\/login\?/);
  });

  it.each([
    'redirect=https%3A%2F%2Fevil.test%2F',
    'redirect=%2F%2Fevil.test',
    'redirect=javascript%3Aalert(1)',
    '',
    `redirect=${back}&aal=AAL9`,
  ])('answers 400 with a page for %j', async (query) => {
    const response = await stepUp(query);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await response.text()).toContain('This link cannot be followed');
  });

  it('the login page carries aal and redirect into its form', async () => {
    const page = await (await svc.fetch(`/login?aal=AAL3&redirect=${back}`)).text();
    expect(page).toContain('name="aal" value="AAL3"');
    expect(page).toContain('name="redirect" value="http://localhost:4003/seal?x=1"');
    expect(page).toContain('Sign in with a passkey');
  });

  it('a password login that does not reach the wanted level leads to enrolment on /account, keeping the redirect', async () => {
    const address = email('enrol');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'E', orgName: 'O' });
    const response = await svc.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: address,
        password: 'secret1',
        aal: 'AAL2',
        redirect: 'http://localhost:4003/seal',
      }),
      redirect: 'manual',
    });
    const to = new URL(location(response), svc.url);
    expect(to.pathname).toBe('/account');
    expect(to.searchParams.get('stepup')).toBe('AAL2');
    expect(to.searchParams.get('redirect')).toBe('http://localhost:4003/seal');
  });
});
