/**
 * Login CSRF: a page on another site posts the sign-in or registration form with the attacker's credentials, so
 * that the visitor's browser ends up signed in to the attacker's account (and whatever they enter lands there).
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { signUp, startIdentity } from '../src/testing/index.js';
import { email, FORM, location, PASSWORD, setCookie } from './helpers.js';

describeEachDatabase('login CSRF', (target) => {
  let svc: RunningService;
  let shared: RunningService;
  let attacker: string;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    shared = await startIdentity(await target.open('identity'), { XV_SHARED_DOMAIN: 'example.com' });
    attacker = email('attacker');
    for (const service of [svc, shared])
      await signUp(service.url, { email: attacker, password: PASSWORD, name: 'M', orgName: 'Mallory' });
  });

  const post = (service: RunningService, path: string, fields: Record<string, string>, headers = {}) =>
    service.fetch(path, {
      method: 'POST',
      headers: { ...FORM, ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });
  const login = (service: RunningService, headers: Record<string, string>) =>
    post(service, '/api/auth/login', { email: attacker, password: PASSWORD }, headers);

  async function expectRefused(response: Response) {
    expect(response.status).toBe(403);
    expect((await response.json()).error).toBe('forbidden_origin');
    expect(setCookie(response, 'xv_session')).toBeUndefined();
  }

  it("a page on another site cannot sign the visitor in to the attacker's account", async () => {
    await expectRefused(await login(svc, { origin: 'https://evil.test' }));
    await expectRefused(await login(shared, { origin: 'https://example.com.evil.test' }));
    await expectRefused(await login(shared, { origin: 'http://kb.example.com' }));
    await expectRefused(await login(svc, { origin: 'null', 'sec-fetch-site': 'cross-site' }));
  });

  it('a sign-in marked cross-site by the browser is refused even without an Origin', async () => {
    await expectRefused(await login(svc, { 'sec-fetch-site': 'cross-site' }));
  });

  it('a page on another site cannot register the visitor into an account of its making', async () => {
    const fields = { email: email('planted'), password: PASSWORD, name: 'P', orgName: 'P' };
    await expectRefused(await post(svc, '/api/auth/register', fields, { origin: 'https://evil.test' }));
    await expectRefused(await post(svc, '/api/auth/register', fields, { 'sec-fetch-site': 'cross-site' }));
  });

  it('sign-in still works from XV pages and from clients that send neither header', async () => {
    for (const [service, headers] of [
      [svc, {}],
      [svc, { origin: svc.url, 'sec-fetch-site': 'same-origin' }],
      [svc, { origin: 'http://localhost:4002' }],
      [shared, { origin: 'https://kb.example.com', 'sec-fetch-site': 'same-site' }],
      [shared, { origin: shared.url }],
    ] as const) {
      const response = await login(service, headers);
      expect([headers, location(response)]).toEqual([headers, '/account']);
      expect(setCookie(response, 'xv_session')).toBeDefined();
    }
    const registered = await post(svc, '/api/auth/register', {
      email: email('curl'),
      password: PASSWORD,
      name: 'C',
      orgName: 'C',
    });
    expect(location(registered)).toBe('/account');
  });
});
