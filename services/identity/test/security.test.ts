import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createServiceClient, enableTotp, signUp, startIdentity, totpCode } from '../src/testing/index.js';
import {
  type Admin,
  email,
  location,
  postForm,
  postJson,
  setCookie,
  setCookieLine,
  signUpAdmin,
  startWithAdmin,
} from './helpers.js';

describeEachDatabase('session security', (target) => {
  let svc: RunningService;
  let shared: RunningService;
  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    shared = await startIdentity(await target.open('identity'), { XV_SHARED_DOMAIN: 'xv.test' });
  });

  it('session fixation: a session token planted before login is never adopted, and a prior session ends', async () => {
    const address = email('fix');
    const victim = await signUp(svc.url, { email: address, password: 'secret1', name: 'V', orgName: 'O' });
    for (const planted of ['xv_session=xss_attacker_chosen_value', victim.cookie]) {
      const response = await postForm(
        svc,
        '/api/auth/login',
        { email: address, password: 'secret1' },
        planted,
      );
      const issued = setCookie(response, 'xv_session')!;
      expect(issued).toBeDefined();
      expect(issued).not.toBe(planted);
      expect((await svc.fetch('/api/session', { headers: { cookie: planted } })).status).toBe(401);
      expect((await svc.fetch('/api/session', { headers: { cookie: issued } })).status).toBe(200);
    }
  });

  it('on localhost the cookie is HttpOnly, SameSite=Lax, host-only and not Secure', async () => {
    const response = await postForm(svc, '/api/auth/register', {
      email: email(),
      password: 'secret1',
      name: 'A',
      orgName: 'O',
    });
    const line = setCookieLine(response, 'xv_session')!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toMatch(/Domain=/i);
    expect(line).not.toMatch(/Secure/);
  });

  it('under a shared domain the cookie is Secure with Domain=<shared domain>', async () => {
    const response = await postForm(shared, '/api/auth/register', {
      email: email(),
      password: 'secret1',
      name: 'A',
      orgName: 'O',
    });
    const line = setCookieLine(response, 'xv_session')!;
    expect(line).toMatch(/Domain=xv\.test/);
    expect(line).toMatch(/Secure/);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
  });

  it('GET /api/session grants credentialed CORS to sites under the shared domain only', async () => {
    const { cookie } = await signUpAdmin(shared.url);
    const friendly = await shared.fetch('/api/session', {
      headers: { cookie, origin: 'https://kb.xv.test' },
    });
    expect(friendly.headers.get('access-control-allow-origin')).toBe('https://kb.xv.test');
    expect(friendly.headers.get('access-control-allow-credentials')).toBe('true');
    for (const origin of ['https://evil.test', 'https://xv.test.evil.test', 'http://kb.xv.test', 'null']) {
      const foreign = await shared.fetch('/api/session', { headers: { cookie, origin } });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('a cookie-carrying write from a foreign origin is refused (logout, org switch)', async () => {
    const { cookie } = await signUpAdmin(svc.url);
    const logout = await svc.fetch('/api/auth/logout', {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.test' },
      redirect: 'manual',
    });
    expect(logout.status).toBe(403);
    expect((await svc.fetch('/api/session', { headers: { cookie } })).status).toBe(200);
  });

  it('brute force: after five wrong passwords from one address it must wait, even with the right password', async () => {
    const address = email('brute');
    await signUp(svc.url, { email: address, password: 'secret1', name: 'B', orgName: 'O' });
    for (let i = 0; i < 5; i += 1) {
      expect(
        location(await postForm(svc, '/api/auth/login', { email: address, password: `wrong-${i}` })),
      ).toBe('/login?error=1');
    }
    const locked = await postForm(svc, '/api/auth/login', { email: address, password: 'secret1' });
    expect(location(locked)).toBe('/login?error=locked');
    expect(setCookie(locked, 'xv_session')).toBeUndefined();
  });

  it('brute force: unknown e-mails wait the same way (no hint that an account exists)', async () => {
    const ghost = email('ghost');
    for (let i = 0; i < 5; i += 1) await postForm(svc, '/api/auth/login', { email: ghost, password: 'x' });
    expect(location(await postForm(svc, '/api/auth/login', { email: ghost, password: 'x' }))).toBe(
      '/login?error=locked',
    );
  });

  it('brute force: wrong 2FA codes make the second step wait', async () => {
    const address = email('otp');
    const first = await signUp(svc.url, { email: address, password: 'secret1', name: 'O', orgName: 'O' });
    const { secret } = await enableTotp(svc.url, first.cookie, 'secret1');
    const login = await postForm(svc, '/api/auth/login', { email: address, password: 'secret1' });
    const mfa = setCookie(login, 'xv_mfa')!;
    const good = totpCode(secret, Date.now() + 30_000);
    const wrong = String((Number(good) + 7) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i += 1) await postForm(svc, '/api/auth/2fa', { code: wrong }, mfa);
    const locked = await postForm(svc, '/api/auth/2fa', { code: good }, mfa);
    expect(location(locked)).toBe('/login/2fa?error=locked');
    expect(setCookie(locked, 'xv_session')).toBeUndefined();
  });

  it('brute force: one IP trying many accounts is locked out', async () => {
    const strict = await startIdentity(await target.open('identity'), { XV_IDENTITY_IP_MAX_FAILURES: '3' });
    for (let i = 0; i < 3; i += 1)
      await postForm(strict, '/api/auth/login', { email: email('spray'), password: 'x' });
    expect(
      location(await postForm(strict, '/api/auth/login', { email: email('spray'), password: 'x' })),
    ).toBe('/login?error=locked');
  });

  it('sessions end after the absolute lifetime, however active', async () => {
    const short = await startIdentity(await target.open('identity'), {
      XV_IDENTITY_SESSION_LIFETIME_SECONDS: '1',
      XV_IDENTITY_SESSION_CACHE_MS: '0',
    });
    const { cookie } = await signUpAdmin(short.url);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await short.fetch('/api/session', { headers: { cookie } })).status).toBe(401);
  });

  it('sessions end after the idle timeout', async () => {
    const idle = await startIdentity(await target.open('identity'), {
      XV_IDENTITY_SESSION_IDLE_SECONDS: '1',
      XV_IDENTITY_SESSION_CACHE_MS: '0',
    });
    const { cookie } = await signUpAdmin(idle.url);
    expect((await idle.fetch('/api/session', { headers: { cookie } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await idle.fetch('/api/session', { headers: { cookie } })).status).toBe(401);
  });
});

describeEachDatabase('service clients', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let orgId: string;
  beforeAll(async () => {
    ({ svc, admin, orgId } = await startWithAdmin(target, {
      email: email('sc'),
      name: 'Admin',
      orgName: 'Issuers',
    }));
  });
  const me = (token: string) =>
    svc.fetch('/api/service-clients/me', { headers: { authorization: `Bearer ${token}` } });

  it('an admin creates a client; its token is shown once and identifies it at /api/service-clients/me', async () => {
    const response = await postJson(
      svc,
      '/api/service-clients',
      { name: 'sealer', scopes: ['did:issue'], org_id: orgId },
      admin.cookie,
    );
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({
      id: expect.stringMatching(/^svc_/),
      token: expect.stringMatching(/^xvc_/),
      org_id: orgId,
      realm_id: 'default',
    });
    expect(await (await me(created.token)).json()).toEqual({
      id: created.id,
      name: 'sealer',
      realm_id: 'default',
      org_id: orgId,
      scopes: ['did:issue'],
    });
    const list = await (
      await svc.fetch('/api/service-clients', { headers: { cookie: admin.cookie } })
    ).json();
    expect(list.clients.map((c: { id: string }) => c.id)).toContain(created.id);
    expect(JSON.stringify(list)).not.toContain(created.token);
  });

  it('/api/service-clients/me answers 401 for a missing, malformed, unknown or revoked token', async () => {
    const { id, token } = await createServiceClient(svc.url, admin.cookie, {
      name: 'gone',
      scopes: ['did:issue'],
      org_id: orgId,
    });
    expect(
      (await svc.fetch(`/api/service-clients/${id}`, { method: 'DELETE', headers: { cookie: admin.cookie } }))
        .status,
    ).toBe(200);
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer xvc_unknown' },
      { authorization: `Bearer ${token}` },
    ] as Record<string, string>[]) {
      expect((await svc.fetch('/api/service-clients/me', { headers })).status).toBe(401);
    }
  });

  it('only an admin of the organization may create clients, and never realm-wide ones', async () => {
    const outsider = await signUpAdmin(svc.url, { name: 'X', orgName: 'Other' });
    const foreign = await postJson(
      svc,
      '/api/service-clients',
      { name: 'x', scopes: ['did:issue'], org_id: orgId },
      outsider.cookie,
    );
    expect(foreign.status).toBe(403);
    const realmWide = await postJson(
      svc,
      '/api/service-clients',
      { name: 'x', scopes: ['did:issue'], org_id: null },
      admin.cookie,
    );
    expect(realmWide.status).toBe(403);
    expect(await realmWide.json()).toMatchObject({ error: 'realm_wide_forbidden' });
    expect(
      (
        await postJson(
          svc,
          '/api/service-clients',
          { name: 'x', scopes: ['Bad Scope!'], org_id: orgId },
          admin.cookie,
        )
      ).status,
    ).toBe(400);
    expect((await postJson(svc, '/api/service-clients', { name: 'x', scopes: ['did:issue'] })).status).toBe(
      401,
    );
  });

  it('refuses a service client a scope XV does not know, naming the ones it does', async () => {
    const { cookie, orgId } = await signUpAdmin(svc.url, { name: 'S', orgName: 'Scopes' });
    const invented = await postJson(
      svc,
      '/api/service-clients',
      { name: 'x', scopes: ['did:issue', 'everything:admin'], org_id: orgId },
      cookie,
    );
    expect(invented.status).toBe(400);
    const body = await invented.json();
    expect(body).toMatchObject({ error: 'unknown_scope' });
    expect(body.message).toContain('everything:admin');
    expect(body.scopes).toContain('did:issue');
  });
});
