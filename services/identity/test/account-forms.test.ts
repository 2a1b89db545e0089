/**
 * The account page's removal forms without script: 2FA off, new recovery codes, a passkey, a service client
 * and a member. Each does what its API does, asks for the step-up the API would, refuses what is not the
 * caller's, and answers a failure with the page (the error next to the card).
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { beforeAll, expect, it } from 'vitest';
import {
  createServiceClient,
  createUser,
  enableTotp,
  registerPasskey,
  SoftwareAuthenticator,
  signInWithPasskey,
  startIdentity,
} from '../src/testing/index.js';
import { email, location, PASSWORD, postForm, signUpAdmin } from './helpers.js';

describeEachDatabase('the account page without script', (target) => {
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  const page = async (cookie: string) => (await svc.fetch('/account', { headers: { cookie } })).text();

  it('new recovery codes are shown once on the page; 2FA goes off with a recovery code, not with a wrong one', async () => {
    const ann = await signUpAdmin(svc.url, { email: email('totp-form') });
    const { recoveryCodes, cookie } = await enableTotp(svc.url, ann.cookie, PASSWORD);
    // The session that enrolled has not proved AAL2 since: the change leads to the step-up.
    const stale = await postForm(svc, '/account/2fa/recovery-codes', {}, ann.cookie);
    expect(stale.status).toBe(303);
    expect(location(stale)).toMatch(/\/step-up\?aal=AAL2/);

    const renewed = await postForm(svc, '/account/2fa/recovery-codes', {}, cookie);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('cache-control')).toBe('no-store');
    const html = await renewed.text();
    const shown = [...html.matchAll(/<li>([^<]+)<\/li>/g)].map((match) => match[1]!);
    const codes = shown.filter((code) => !recoveryCodes.includes(code) && /^[\w-]{6,}$/.test(code));
    expect(codes).toHaveLength(10);
    // Shown once: the page after does not carry them.
    expect(await page(cookie)).not.toContain(codes[0]!);

    const wrong = await postForm(svc, '/account/2fa/disable', { code: '000000' }, cookie);
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('id="totp-error"');
    // The old codes died with the renewal.
    expect((await postForm(svc, '/account/2fa/disable', { code: recoveryCodes[0]! }, cookie)).status).toBe(
      400,
    );
    const off = await postForm(svc, '/account/2fa/disable', { code: codes[0]! }, cookie);
    expect(location(off)).toBe('/account?notice=totp_disabled#totp-title');
    expect(await page(cookie)).toMatch(/<div id="totp-on" hidden="">/);
  });

  it("a passkey is removed by its owner's form after a fresh proof, never someone else's", async () => {
    const ann = await signUpAdmin(svc.url, { email: email('passkey-form') });
    const authenticator = new SoftwareAuthenticator();
    const { id } = await registerPasskey(svc.url, ann.cookie, authenticator, { password: PASSWORD });
    const eve = await signUpAdmin(svc.url, { email: email('passkey-eve') });
    const eveKey = new SoftwareAuthenticator();
    await registerPasskey(svc.url, eve.cookie, eveKey, { password: PASSWORD });
    const eveFresh = await signInWithPasskey(svc.url, eveKey, eve.cookie);
    const refused = await postForm(svc, `/account/passkeys/${id}/remove`, {}, eveFresh.cookie);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('id="passkeys-error"');

    const fresh = await signInWithPasskey(svc.url, authenticator, ann.cookie);
    const removed = await postForm(svc, `/account/passkeys/${id}/remove`, {}, fresh.cookie);
    expect(location(removed)).toBe('/account?notice=passkey_removed#passkeys-title');
    const listed = await (
      await svc.fetch('/api/auth/passkeys', { headers: { cookie: fresh.cookie } })
    ).json();
    expect(listed.passkeys).toEqual([]);
  });

  it("a service client and a member are removed by their organization's admin only", async () => {
    const ann = await signUpAdmin(svc.url, { email: email('admin-form') });
    const client = await createServiceClient(svc.url, ann.cookie, {
      name: 'import',
      scopes: ['sync'],
      org_id: ann.orgId,
    });
    const member = await createUser(svc.url, ann.cookie, {
      email: email('member-form'),
      password: PASSWORD,
      name: 'Mo',
      role: 'member',
    });
    // A member (acting in Ann's organization) may do neither.
    const asMember = await postForm(svc, `/account/service-clients/${client.id}/revoke`, {}, member.cookie);
    expect(asMember.status).toBe(403);
    expect(await asMember.text()).toContain('id="clients-error"');
    expect(
      (await postForm(svc, `/account/members/${ann.session.user.id}/remove`, {}, member.cookie)).status,
    ).toBe(403);

    expect(
      location(await postForm(svc, `/account/service-clients/${client.id}/revoke`, {}, ann.cookie)),
    ).toBe('/account?notice=client_revoked#clients-title');
    const me = await svc.fetch('/api/service-clients/me', {
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(me.status).toBe(401);

    const memberId = member.session.user.id;
    expect(location(await postForm(svc, `/account/members/${memberId}/remove`, {}, ann.cookie))).toBe(
      '/account?notice=member_removed#members-title',
    );
    const { members } = await (
      await svc.fetch('/api/org/members', { headers: { cookie: ann.cookie } })
    ).json();
    expect(members.map((m: { user_id: string }) => m.user_id)).not.toContain(memberId);
    // The last admin stays, with the reason next to the members card.
    const last = await postForm(svc, `/account/members/${ann.session.user.id}/remove`, {}, ann.cookie);
    expect(last.status).toBe(409);
    expect(await last.text()).toContain('id="members-error"');
  });
});
