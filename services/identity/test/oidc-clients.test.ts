/**
 * Apps per organization: registered by its administrators (API and account page), secrets shown once, and
 * membership and roles as claims when the app asks for the `organizations` scope.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import { createUser, startIdentity } from '../src/testing/index.js';
import { type Admin, email, FORM, PASSWORD, signUpAdmin } from './helpers.js';
import {
  APP_CALLBACK,
  authorizationRequest,
  Browser,
  formAction,
  oidc,
  registerApp,
  relyingParty,
} from './oidc-helpers.js';

describeEachDatabase('Sign in with XV: apps of an organization', (target) => {
  let svc: RunningService;
  let admin: Admin;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
  });

  it('the account page registers an app: the secret shows once, the card lists the app without it', async () => {
    const account = await (await svc.fetch('/account', { headers: { cookie: admin.cookie } })).text();
    expect(account).toContain('Register an app');
    const response = await svc.fetch('/account/oidc/clients', {
      method: 'POST',
      headers: { ...FORM, cookie: admin.cookie, origin: svc.url },
      body: new URLSearchParams({
        name: 'Acme Desk',
        kind: 'confidential',
        redirect_uris: `${APP_CALLBACK}\n`,
        scope_profile: '1',
        scope_organizations: '1',
      }).toString(),
    });
    expect(response.status).toBe(200);
    const page = await response.text();
    const clientId = /id="oidc-client-id">([^<]+)</.exec(page)![1]!;
    const secret = /id="oidc-client-secret">([^<]+)</.exec(page)![1]!;
    expect(page).toContain(`${svc.url}/oidc/default/.well-known/openid-configuration`);
    const after = await (await svc.fetch('/account', { headers: { cookie: admin.cookie } })).text();
    expect(after).toContain('Acme Desk');
    expect(after).toContain(clientId);
    expect(after).not.toContain(secret);

    const config = await relyingParty(svc, { client_id: clientId, client_secret: secret, redirect_uris: [] });
    const request = await authorizationRequest(config, { scope: 'openid profile organizations' });
    const browser = new Browser(admin.cookie);
    const consent = await browser.follow(request.url);
    expect(consent.html).toContain('Acme Desk is registered by Acme');
    expect(consent.html).toContain('See the organizations you belong to and your role in each');
    const back = await browser.submit(consent.url, formAction(consent.html!, '/consent'), {
      decision: 'allow',
    });
    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.url), {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.organizations).toEqual([{ id: admin.orgId, name: 'Acme', role: 'admin' }]);
    expect(info.email).toBeUndefined();
  });

  it('an app asking for a scope it was not registered for is refused: invalid_scope, no code', async () => {
    const app = await registerApp(svc, admin.cookie, { scopes: ['openid', 'email'] });
    const config = await relyingParty(svc, app);
    const request = await authorizationRequest(config, { scope: 'openid email organizations' });
    const back = new URL((await new Browser(admin.cookie).follow(request.url)).url);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('a member sees no registration card and cannot list or remove the organization’s apps', async () => {
    const app = await registerApp(svc, admin.cookie);
    const member = await createUser(svc.url, admin.cookie, {
      email: email('member'),
      password: PASSWORD,
      name: 'M',
      role: 'member',
    });
    const account = await (await svc.fetch('/account', { headers: { cookie: member.cookie } })).text();
    expect(account).not.toContain('Register an app');
    const list = await svc.fetch('/api/oidc/clients', { headers: { cookie: member.cookie } });
    expect(list.status).toBe(403);
    const remove = await svc.fetch(`/api/oidc/clients/${app.client_id}`, {
      method: 'DELETE',
      headers: { cookie: member.cookie },
    });
    expect(remove.status).toBe(403);
    // Another organization's administrator does not find it.
    const other = await signUpAdmin(svc.url, { email: email('other') });
    const foreign = await svc.fetch(`/api/oidc/clients/${app.client_id}`, {
      method: 'DELETE',
      headers: { cookie: other.cookie },
    });
    expect(foreign.status).toBe(404);
    const removed = await svc.fetch(`/api/oidc/clients/${app.client_id}`, {
      method: 'DELETE',
      headers: { cookie: admin.cookie },
    });
    expect(removed.status).toBe(200);
    const discovery = await relyingParty(svc, app);
    await expect(oidc.refreshTokenGrant(discovery, 'x')).rejects.toMatchObject({ status: 401 });
  });
});
