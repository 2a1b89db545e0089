/**
 * Device sign-in (RFC 8628) for XV's desktop client: the device gets a short code, the person approves in the
 * browser with their second factor, and the device receives a `sync` token bound to the knowledge base.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { beforeAll, expect, it } from 'vitest';
import { enableTotp, startIdentity } from '../src/testing/index.js';
import { type Admin, PASSWORD, signUpAdmin } from './helpers.js';
import { Browser, formAction, hiddenInputs, oidc } from './oidc-helpers.js';

const KB = 'http://127.0.0.1:4999';

describeEachDatabase('Sign in with XV: device sign-in for the desktop client', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let config: oidc.Configuration;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'), { XV_KB_URL: KB });
    admin = await signUpAdmin(svc.url, { orgName: 'Acme' });
    config = await oidc.discovery(new URL(`${svc.url}/oidc/default`), 'xv-desktop', {}, oidc.None(), {
      execute: [oidc.allowInsecureRequests],
    });
  });

  /** The person's part in the browser: the code, the second factor when asked, consent. */
  async function approve(browser: Browser, verificationUri: string) {
    // The link with the code answers a form that posts the code by itself (a script, or a button without one).
    const autoPost = await browser.follow(verificationUri);
    expect(autoPost.response?.headers.get('content-security-policy')).toMatch(/script-src 'self' 'sha256-/);
    const confirm = await browser.submit(
      autoPost.url,
      formAction(autoPost.html!),
      hiddenInputs(autoPost.html!),
    );
    expect(confirm.html).toContain('XV desktop client');
    return browser.submit(confirm.url, formAction(confirm.html!), hiddenInputs(confirm.html!));
  }

  it('the device gets a sync token for the knowledge base once the person approves with 2FA', async () => {
    const device = await oidc.initiateDeviceAuthorization(config, {
      scope: 'openid offline_access sync',
      acr_values: 'AAL2',
    });
    expect(device.user_code).toMatch(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);
    expect(device.verification_uri).toBe(`${svc.url}/oidc/default/device`);

    // Password only: the approval sends the person through the second factor first.
    const first = await oidc.initiateDeviceAuthorization(config, {
      scope: 'openid sync',
      acr_values: 'AAL2',
    });
    const stepUp = await approve(new Browser(admin.cookie), first.verification_uri_complete!);
    expect(new URL(stepUp.url).pathname).toBe('/login');
    expect(new URL(stepUp.url).searchParams.get('aal')).toBe('AAL2');

    const { cookie } = await enableTotp(svc.url, admin.cookie, PASSWORD);
    const browser = new Browser(cookie);
    const polling = oidc.pollDeviceAuthorizationGrant(config, device);
    const consent = await approve(browser, device.verification_uri_complete!);
    expect(consent.html).toContain('Push documents to your organization’s knowledge base for review');
    const done = await browser.submit(consent.url, formAction(consent.html!, '/consent'), {
      decision: 'allow',
    });
    expect(done.html).toContain('is signed in');

    const tokens = await polling;
    expect(tokens.refresh_token).toBeTruthy();
    const jwks = createRemoteJWKSet(new URL(`${svc.url}/oidc/default/jwks`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: `${svc.url}/oidc/default`,
      audience: KB,
    });
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({
      sub: admin.session.user.id,
      scope: 'sync',
      org_id: admin.orgId,
      email: admin.session.user.email,
      client_id: 'xv-desktop',
    });
    // Refreshing keeps the token bound to the knowledge base.
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    const again = await jwtVerify(refreshed.access_token, jwks, { audience: KB });
    expect(again.payload.scope).toBe('sync');
  }, 60_000);

  it('a resource other than XV’s knowledge base is refused (invalid_target)', async () => {
    await expect(
      oidc.initiateDeviceAuthorization(config, { scope: 'openid sync', resource: 'https://evil.test/' }),
    ).rejects.toMatchObject({ error: 'invalid_target' });
  });
});
