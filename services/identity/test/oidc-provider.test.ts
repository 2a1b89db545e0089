/**
 * "Sign in with XV": openid-client, an independent certified relying party, runs the code flow with PKCE,
 * refresh, UserInfo and logout against the real identity server, and steps up through `acr_values`.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { enableTotp, signIn, startIdentity, totpCode } from '../src/testing/index.js';
import { type Admin, email, PASSWORD, signUpAdmin } from './helpers.js';
import {
  APP_CALLBACK,
  APP_SIGNED_OUT,
  authorizationRequest,
  Browser,
  formAction,
  oidc,
  type RegisteredApp,
  registerApp,
  relyingParty,
} from './oidc-helpers.js';

describeEachDatabase('Sign in with XV (OpenID Connect)', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let app: RegisteredApp;
  let config: oidc.Configuration;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
    app = await registerApp(svc, admin.cookie);
    config = await relyingParty(svc, app);
  });

  /** Signs `browser` in to the app through the consent page; answers the callback URL. */
  async function consentAndReturn(browser: Browser, url: string) {
    const consent = await browser.follow(url);
    expect(consent.html).toContain('Allow Acme Wiki to use your XV account?');
    return browser.submit(consent.url, formAction(consent.html!, '/consent'), { decision: 'allow' });
  }

  it('publishes discovery for the realm: S256 only, XV’s levels as acr values, and a JWKS', async () => {
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(`${svc.url}/oidc/default`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.acr_values_supported).toEqual(['AAL1', 'AAL2', 'AAL3']);
    expect(metadata.end_session_endpoint).toBe(`${svc.url}/oidc/default/session/end`);
    const jwks = (await (await fetch(metadata.jwks_uri!)).json()) as { keys: { kty: string; d?: string }[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    expect(jwks.keys.every((key) => key.kty === 'RSA' && key.d === undefined)).toBe(true);
  });

  it('runs the code flow with PKCE, refresh (rotating), UserInfo and RP-initiated logout', async () => {
    const browser = new Browser(admin.cookie);
    const request = await authorizationRequest(config, {
      scope: 'openid email profile offline_access',
      prompt: 'consent',
    });
    const back = await consentAndReturn(browser, request.url);
    expect(back.url.startsWith(APP_CALLBACK)).toBe(true);

    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(admin.session.user.id);
    expect(claims.nonce).toBe(request.nonce);
    expect(claims.acr).toBe('AAL1');
    expect(claims.amr).toEqual(['pwd']);
    expect(tokens.refresh_token).toBeTruthy();

    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info.email).toBe(admin.session.user.email);
    expect(info.name).toBe('A');

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(claims.sub);

    // Consent is remembered: the next sign-in of the app goes straight back.
    const again = await authorizationRequest(config);
    expect((await browser.follow(again.url)).url.startsWith(APP_CALLBACK)).toBe(true);

    const logout = oidc.buildEndSessionUrl(config, {
      id_token_hint: refreshed.id_token ?? tokens.id_token!,
      post_logout_redirect_uri: APP_SIGNED_OUT,
      state: 'bye',
    });
    const question = await browser.follow(logout.href);
    expect(question.html).toContain('Sign out?');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.html!)![1]!;
    const done = await browser.submit(question.url, formAction(question.html!), { xsrf, logout: 'yes' });
    expect(done.url).toBe(`${APP_SIGNED_OUT}?state=bye`);
    // Signing out of XV ended the XV session too.
    expect((await browser.request(`${svc.url}/api/session`)).status).toBe(401);
  });

  it('steps up through acr_values: AAL2 sends a password-only session through the second factor', async () => {
    const person = await signUpAdmin(svc.url, { email: email('stepup') });
    const { secret } = await enableTotp(svc.url, person.cookie, PASSWORD);
    // A fresh password-only session (AAL1) for someone who has 2FA.
    const login = await fetch(`${svc.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: person.session.user.email, password: PASSWORD }).toString(),
      redirect: 'manual',
    });
    expect(login.headers.get('location')).toBe('/login/2fa');
    const browser = new Browser(admin.cookie);
    browser.cookies.clear();

    const request = await authorizationRequest(config, { acr_values: 'AAL2' });
    const page = await browser.follow(request.url);
    expect(new URL(page.url).pathname).toBe('/login');
    expect(new URL(page.url).searchParams.get('aal')).toBe('AAL2');
    const twoFactor = await browser.submit(page.url, formAction(page.html!, '/api/auth/login'), {
      email: person.session.user.email,
      password: PASSWORD,
      redirect: new URL(page.url).searchParams.get('redirect')!,
      aal: 'AAL2',
    });
    expect(new URL(twoFactor.url).pathname).toBe('/login/2fa');
    // The current step's code was spent by enableTotp: wait for the next one.
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 200));
    const consent = await browser.submit(twoFactor.url, '/api/auth/2fa', { code: totpCode(secret) });
    expect(consent.html).toContain('Allow Acme Wiki');
    const back = await browser.submit(consent.url, formAction(consent.html!, '/consent'), {
      decision: 'allow',
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    expect(tokens.claims()!.acr).toBe('AAL2');
    expect(tokens.claims()!.amr).toEqual(['pwd', 'otp']);
  }, 60_000);

  it('prompt=login and max_age: the person signs in again, and auth_time says when', async () => {
    const browser = new Browser();
    const { cookie } = await signIn(svc.url, admin.session.user.email, PASSWORD);
    for (const pair of cookie.split('; '))
      browser.cookies.set(pair.split('=')[0]!, pair.slice(pair.indexOf('=') + 1));
    const before = Math.floor(Date.now() / 1000);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const cases: Record<string, string>[] = [{ prompt: 'login' }, { max_age: '0' }];
    for (const params of cases) {
      const request = await authorizationRequest(config, params);
      const page = await browser.follow(request.url);
      expect(new URL(page.url).pathname).toBe('/login');
      const back = await browser.submit(page.url, formAction(page.html!, '/api/auth/login'), {
        email: admin.session.user.email,
        password: PASSWORD,
        redirect: new URL(page.url).searchParams.get('redirect')!,
      });
      const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
        expectedNonce: request.nonce,
        ...(params.max_age ? { maxAge: 5 } : {}),
      });
      expect(tokens.claims()!.auth_time).toBeGreaterThan(before);
    }
  });

  it('consent is revocable from the account console: the app’s tokens for the person end', async () => {
    const person = await signUpAdmin(svc.url, { email: email('revoke') });
    const browser = new Browser(person.cookie);
    const request = await authorizationRequest(config, {
      scope: 'openid email offline_access',
      prompt: 'consent',
    });
    const back = await consentAndReturn(browser, request.url);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const listed = await svc.fetch('/api/oidc/consents', { headers: { cookie: person.cookie } });
    const { apps } = (await listed.json()) as {
      apps: { client_id: string; name: string; scopes: string[] }[];
    };
    expect(apps).toEqual([expect.objectContaining({ client_id: app.client_id, name: 'Acme Wiki' })]);
    expect(apps[0]!.scopes).toEqual(expect.arrayContaining(['openid', 'email', 'offline_access']));
    const account = await (await svc.fetch('/account', { headers: { cookie: person.cookie } })).text();
    expect(account).toContain('Apps you allowed');
    expect(account).toContain('Acme Wiki');

    const revoked = await svc.fetch(`/api/oidc/consents/${app.client_id}`, {
      method: 'DELETE',
      headers: { cookie: person.cookie },
    });
    expect(revoked.status).toBe(200);
    await expect(oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // Someone else cannot take back what this person allowed.
    const someoneElse = await signUpAdmin(svc.url, { email: email('else') });
    const again = await svc.fetch(`/api/oidc/consents/${app.client_id}`, {
      method: 'DELETE',
      headers: { cookie: someoneElse.cookie },
    });
    expect(again.status).toBe(404);
  });
});
