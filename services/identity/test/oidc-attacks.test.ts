/**
 * Attacks on "Sign in with XV", each named for what it tries. The relying party is openid-client; the
 * provider is the real identity server.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createRealm } from '../src/accounts/repository.js';
import type { IdentityDb, Tables } from '../src/db.js';
import { createUser, startIdentity } from '../src/testing/index.js';
import { type Admin, email, PASSWORD, postJson, signUpAdmin } from './helpers.js';
import {
  APP_CALLBACK,
  authorizationRequest,
  Browser,
  formAction,
  oidc,
  type RegisteredApp,
  registerApp,
  relyingParty,
} from './oidc-helpers.js';

/** openid-client's refusal of a response, for the reason `message` names. */
const refused = (message: RegExp) => ({
  cause: expect.objectContaining({ message: expect.stringMatching(message) }),
});

describeEachDatabase('Sign in with XV: attacks', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let app: RegisteredApp;
  let config: oidc.Configuration;
  let db: IdentityDb;

  beforeAll(async () => {
    const database = await target.open<Tables>('identity');
    db = database.kysely;
    svc = await startIdentity(database, {
      XV_IDENTITY_OIDC_TOKEN_REQUESTS_PER_MINUTE: '1000',
    });
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
    app = await registerApp(svc, admin.cookie);
    config = await relyingParty(svc, app);
  });

  /** Runs the browser part of a code flow for `admin` (consenting when asked): the callback URL. */
  async function callback(params: Record<string, string> = {}) {
    const request = await authorizationRequest(config, params);
    const browser = new Browser(admin.cookie);
    let step = await browser.follow(request.url);
    if (step.html?.includes('/consent'))
      step = await browser.submit(step.url, formAction(step.html, '/consent'), { decision: 'allow' });
    return { request, url: new URL(step.url) };
  }

  const exchange = (url: URL, request: { verifier: string; state: string; nonce: string }) =>
    oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });

  it('redirect URI not exactly registered: the provider refuses and sends the browser nowhere', async () => {
    for (const redirect of [
      `${APP_CALLBACK}/extra`,
      `${APP_CALLBACK}?next=1`,
      'http://127.0.0.1:9/callbacK',
    ]) {
      const request = await authorizationRequest(config, { redirect_uri: redirect });
      const response = await new Browser(admin.cookie).request(request.url);
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('redirect_uri');
    }
  });

  it('missing or mismatched state: the relying party refuses the callback', async () => {
    const { request, url } = await callback();
    expect(url.searchParams.get('state')).toBe(request.state);
    const forged = new URL(url);
    forged.searchParams.set('state', 'attacker');
    await expect(exchange(forged, request)).rejects.toMatchObject(refused(/"state"/));
    const stripped = new URL(url);
    stripped.searchParams.delete('state');
    await expect(exchange(stripped, request)).rejects.toMatchObject(refused(/"state"/));
  });

  it('nonce replay: the ID token carries the request’s nonce, and a different expected nonce is refused', async () => {
    const { request, url } = await callback();
    await expect(exchange(url, { ...request, nonce: oidc.randomNonce() })).rejects.toMatchObject(
      refused(/"nonce"/),
    );
  });

  it('PKCE downgrade: no challenge, a `plain` challenge, or a wrong verifier is refused', async () => {
    const browser = new Browser(admin.cookie);
    const noChallenge = new URL(`${svc.url}/oidc/default/auth`);
    noChallenge.search = new URLSearchParams({
      client_id: app.client_id,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: APP_CALLBACK,
      state: 's',
    }).toString();
    const missing = new URL((await browser.follow(noChallenge.href)).url);
    expect(missing.searchParams.get('error')).toBe('invalid_request');
    expect(missing.searchParams.get('code')).toBeNull();

    noChallenge.searchParams.set('code_challenge', 'a'.repeat(43));
    noChallenge.searchParams.set('code_challenge_method', 'plain');
    const plain = new URL((await browser.follow(noChallenge.href)).url);
    expect(plain.searchParams.get('error')).toBe('invalid_request');
    expect(plain.searchParams.get('code')).toBeNull();

    const { request, url } = await callback();
    await expect(
      exchange(url, { ...request, verifier: oidc.randomPKCECodeVerifier() }),
    ).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('authorization code replay: the second use is refused and the tokens issued from the code are revoked', async () => {
    const { request, url } = await callback({ scope: 'openid email offline_access', prompt: 'consent' });
    const tokens = await exchange(url, request);
    expect((await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).sub).toBeTruthy();
    await expect(exchange(url, request)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub)).rejects.toThrow();
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('refresh token reuse: a rotated refresh token used again revokes the whole grant', async () => {
    const { request, url } = await callback({ scope: 'openid offline_access', prompt: 'consent' });
    const first = await exchange(url, request);
    const second = await oidc.refreshTokenGrant(config, first.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, first.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The thief's replay also ends the rightful holder's newer tokens.
    await expect(oidc.refreshTokenGrant(config, second.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(oidc.fetchUserInfo(config, second.access_token, first.claims()!.sub)).rejects.toThrow();
  });

  it('token of realm A in realm B: realm B’s provider knows neither the token nor the app', async () => {
    const other = `oidcb${Date.now()}`;
    await createRealm(db, other, 'Elsewhere');
    const { request, url } = await callback();
    const tokens = await exchange(url, request);
    const inB = await fetch(`${svc.url}/oidc/${other}/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(inB.status).toBe(401);
    expect(((await inB.json()) as { error: string }).error).toBe('invalid_token');
    await expect(
      relyingParty(svc, app, other).then((b) => oidc.refreshTokenGrant(b, 'x')),
    ).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    });
    expect(tokens.claims()!.iss).toBe(`${svc.url}/oidc/default`);
  });

  it('client secret guessing: a wrong secret is invalid_client, and only the secret’s hash is stored', async () => {
    const wrong = await oidc.discovery(
      new URL(`${svc.url}/oidc/default`),
      app.client_id,
      {},
      oidc.ClientSecretBasic('xvo_wrong'),
      { execute: [oidc.allowInsecureRequests] },
    );
    await expect(oidc.refreshTokenGrant(wrong, 'x')).rejects.toMatchObject({
      status: 401,
      cause: [{ parameters: { error: 'invalid_client' } }],
    });
    const row = await db
      .selectFrom('oidc_clients')
      .selectAll()
      .where('id', '=', app.client_id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).not.toContain(app.client_secret!);
    expect(JSON.stringify(row)).not.toContain(app.client_secret!);
  });

  it('consent refused: the app gets access_denied and no code', async () => {
    const person = await signUpAdmin(svc.url, { email: email('deny') });
    const request = await authorizationRequest(config);
    const browser = new Browser(person.cookie);
    const page = await browser.follow(request.url);
    const back = new URL(
      (await browser.submit(page.url, formAction(page.html!, '/consent'), { decision: 'deny' })).url,
    );
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('prompt=login: a live session must sign in again before the app gets a code', async () => {
    const request = await authorizationRequest(config, { prompt: 'login' });
    const page = await new Browser(admin.cookie).follow(request.url);
    expect(new URL(page.url).pathname).toBe('/login');
  });

  it('app registration by someone who does not administer the organization is refused', async () => {
    const member = await createUser(svc.url, admin.cookie, {
      email: email('member'),
      password: PASSWORD,
      name: 'M',
      role: 'member',
    });
    const app = { name: 'x', kind: 'public', redirect_uris: [APP_CALLBACK], org_id: admin.orgId };
    expect((await postJson(svc, '/api/oidc/clients', app, member.cookie)).status).toBe(403);
    const outsider = await signUpAdmin(svc.url, { email: email('outsider') });
    expect((await postJson(svc, '/api/oidc/clients', app, outsider.cookie)).status).toBe(403);
    const list = await svc.fetch(`/api/oidc/clients?org_id=${admin.orgId}`, {
      headers: { cookie: outsider.cookie },
    });
    expect(list.status).toBe(403);
  });

  it('redirect URI wildcards and fragments cannot be registered', async () => {
    for (const redirect of [
      'https://app.test/cb#frag',
      'http://app.test/cb',
      'javascript:alert(1)',
      '/relative',
    ]) {
      const response = await postJson(
        svc,
        '/api/oidc/clients',
        { name: 'x', kind: 'confidential', redirect_uris: [redirect] },
        admin.cookie,
      );
      expect(response.status).toBe(400);
    }
  });
});

describeEachDatabase('Sign in with XV: token endpoint flooding', (target) => {
  it('rate limits the token endpoint per client address: 429 with Retry-After', async () => {
    const svc = await startIdentity(await target.open('identity_oidc_rate'), {
      XV_IDENTITY_OIDC_TOKEN_REQUESTS_PER_MINUTE: '3',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const response = await svc.fetch('/oidc/default/token', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=authorization_code&code=x&client_id=y',
      });
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    expect(statuses.slice(0, 3).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});
