import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { signIn, startIdentity } from '../src/testing/index.js';
import {
  type Admin,
  email,
  FORM,
  location,
  mailedPath,
  outboxLinks,
  PASSWORD,
  postForm,
  postJson,
  signUpAdmin,
} from './helpers.js';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

describeEachDatabase('the account console', (target) => {
  let svc: RunningService;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
  });

  const person = () => signUpAdmin(svc.url, { email: email('console') });
  const signInFrom = async (who: Admin, userAgent = FIREFOX, password = PASSWORD) => {
    const response = await svc.fetch('/api/auth/login', {
      method: 'POST',
      headers: { ...FORM, 'user-agent': userAgent },
      body: new URLSearchParams({ email: who.session.user.email, password }).toString(),
      redirect: 'manual',
    });
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('xv_session='));
    return cookie ? cookie.split(';')[0]! : null;
  };
  const sessionsOf = async (cookie: string) =>
    (await (await svc.fetch('/api/account/sessions', { headers: { cookie } })).json()).sessions as {
      id: string;
      current: boolean;
      user_agent: string | null;
      address: string | null;
    }[];
  const alive = async (cookie: string) =>
    (await svc.fetch('/api/session', { headers: { cookie } })).status === 200;
  const del = (path: string, cookie: string) => svc.fetch(path, { method: 'DELETE', headers: { cookie } });

  it('lists the sessions with device and address; one can be signed out, then all others, and the current one stays', async () => {
    const ann = await person();
    const laptop = (await signInFrom(ann))!;
    const phone = (await signInFrom(ann, 'Mozilla/5.0 (iPhone) AppleWebKit Safari/604.1'))!;
    const listed = await sessionsOf(ann.cookie);
    expect(listed).toHaveLength(3);
    expect(listed.filter((s) => s.current)).toHaveLength(1);
    expect(listed.map((s) => s.user_agent)).toContain(FIREFOX);
    expect(listed.every((s) => s.address)).toBe(true);
    const html = await (await svc.fetch('/account', { headers: { cookie: ann.cookie } })).text();
    expect(html).toContain('Firefox on Linux');
    expect(html).toContain('<summary>Sign out all other sessions…</summary>');

    const phoneId = (await sessionsOf(phone)).find((s) => s.current)!.id;
    expect((await del(`/api/account/sessions/${phoneId}`, ann.cookie)).status).toBe(200);
    expect(await alive(phone)).toBe(false);
    expect(await alive(laptop)).toBe(true);
    const others = await postJson(svc, '/api/account/sessions/sign-out-others', {}, ann.cookie);
    expect(await others.json()).toEqual({ ok: true, ended: 1 });
    expect(await alive(laptop)).toBe(false);
    expect(await alive(ann.cookie)).toBe(true);
  });

  it("another person's session id cannot be signed out, by API or by form", async () => {
    const ann = await person();
    const eve = await person();
    const annId = (await sessionsOf(ann.cookie))[0]!.id;
    const refused = await del(`/api/account/sessions/${annId}`, eve.cookie);
    expect(refused.status).toBe(404);
    expect((await refused.json()).error).toBe('session_not_found');
    expect((await postForm(svc, `/account/sessions/${annId}/sign-out`, {}, eve.cookie)).status).toBe(404);
    expect(await alive(ann.cookie)).toBe(true);
  });

  it('a password change needs the current password, then ends the other sessions', async () => {
    const ann = await person();
    const other = (await signInFrom(ann))!;
    expect(
      (await postJson(svc, '/api/account/password', { new_password: 'newpass1' }, ann.cookie)).status,
    ).toBe(400);
    const wrong = await postJson(
      svc,
      '/api/account/password',
      { current_password: 'guess', new_password: 'newpass1' },
      ann.cookie,
    );
    expect(wrong.status).toBe(403);
    // The form's post answers with the page, the error next to the password form.
    const wrongForm = await postForm(
      svc,
      '/account/password',
      { current_password: 'guess', new_password: 'newpass1' },
      ann.cookie,
    );
    expect(wrongForm.status).toBe(403);
    expect(await wrongForm.text()).toMatch(/<p class="error" role="alert" id="password-error">[^<]*password/);
    expect(await signInFrom(ann, FIREFOX, 'newpass1')).toBeNull();
    expect(await alive(other)).toBe(true);

    const changed = await postForm(
      svc,
      '/account/password',
      { current_password: PASSWORD, new_password: 'newpass1' },
      ann.cookie,
    );
    expect(location(changed)).toBe('/account?notice=password_changed#password-title');
    expect(await alive(other)).toBe(false);
    expect(await alive(ann.cookie)).toBe(true);
    expect(await signInFrom(ann, FIREFOX, 'newpass1')).not.toBeNull();
    expect(await signInFrom(ann, FIREFOX, PASSWORD)).toBeNull();
  });

  it('a password reset by e-mail works once, within the hour, and ends every session', async () => {
    const ann = await person();
    const address = ann.session.user.email;
    const unknown = email('nobody');
    expect((await postJson(svc, '/api/auth/password-reset', { email: unknown })).status).toBe(202);
    expect(await outboxLinks(svc, unknown)).toEqual([]);
    expect(location(await postForm(svc, '/password-reset', { email: address }))).toBe(
      '/password-reset?sent=1',
    );
    const path = await mailedPath(svc, address, '/password-reset/');
    expect((await svc.fetch(path)).status).toBe(200);
    // A too-short password answers with the form and its error, and keeps the link good.
    const short = await postForm(svc, path, { password: 'x' });
    expect(short.status).toBe(400);
    expect(await short.text()).toContain('role="alert"');
    expect((await postForm(svc, path, { password: 'reset-1' })).status).toBe(200);
    expect(await alive(ann.cookie)).toBe(false);
    expect((await signIn(svc.url, address, 'reset-1')).cookie).toMatch(/^xv_session=/);
    // Single use.
    expect((await postForm(svc, path, { password: 'reset-2' })).status).toBe(400);
    const token = path.slice('/password-reset/'.length);
    const again = await postJson(svc, '/api/auth/password-reset/confirm', { token, password: 'reset-2' });
    expect((await again.json()).error).toBe('reset_token_invalid');
    // A guessed token and an address-check token are no reset tokens.
    expect(
      (await postJson(svc, '/api/auth/password-reset/confirm', { token: 'xvr_guess', password: 'reset-3' }))
        .status,
    ).toBe(400);
  });

  it('an expired or replaced reset link does nothing', async () => {
    const ann = await person();
    const address = ann.session.user.email;
    await postJson(svc, '/api/auth/password-reset', { email: address });
    const first = (await mailedPath(svc, address, '/password-reset/')).slice('/password-reset/'.length);
    await postJson(svc, '/api/auth/password-reset', { email: address });
    const second = (await mailedPath(svc, address, '/password-reset/')).slice('/password-reset/'.length);
    expect(
      (await postJson(svc, '/api/auth/password-reset/confirm', { token: first, password: 'replaced' }))
        .status,
    ).toBe(400);
    await sql`update account_tokens set expires_at = ${Date.now() - 1} where purpose = 'password_reset'`.execute(
      svc.context.database.kysely,
    );
    expect(
      (await postJson(svc, '/api/auth/password-reset/confirm', { token: second, password: 'expired' }))
        .status,
    ).toBe(400);
    expect((await svc.fetch(`/password-reset/${second}`)).status).toBe(400);
    expect(await alive(ann.cookie)).toBe(true);
  });

  it('the address is verified through an e-mailed link, and the account says so', async () => {
    const ann = await person();
    const account = async () => (await svc.fetch('/account', { headers: { cookie: ann.cookie } })).text();
    expect(await account()).toContain('data-email-verified="no"');
    expect(location(await postForm(svc, '/account/email/verification', {}, ann.cookie))).toContain(
      'verification_sent',
    );
    const path = await mailedPath(svc, ann.session.user.email, '/verify-email/');
    // A reset of the password cannot be made with it.
    const token = path.slice('/verify-email/'.length);
    expect(
      (await postJson(svc, '/api/auth/password-reset/confirm', { token, password: 'nope123' })).status,
    ).toBe(400);
    expect((await svc.fetch(path)).status).toBe(200);
    expect((await postForm(svc, path, {})).status).toBe(200);
    expect(await account()).toContain('data-email-verified="yes"');
    expect((await postForm(svc, path, {})).status).toBe(400);
  });

  it('the display name changes, and the security log shows sign-ins, failures and changes with address and device', async () => {
    const ann = await person();
    expect(location(await postForm(svc, '/account/profile', { name: 'Ann Other' }, ann.cookie))).toContain(
      'profile_saved',
    );
    expect(
      (await (await svc.fetch('/api/session', { headers: { cookie: ann.cookie } })).json()).user.name,
    ).toBe('Ann Other');
    expect((await postJson(svc, '/api/account/profile', { name: '' }, ann.cookie)).status).toBe(400);

    expect(await signInFrom(ann, FIREFOX, 'wrong-password')).toBeNull();
    await signInFrom(ann);
    await postJson(
      svc,
      '/api/account/password',
      { current_password: PASSWORD, new_password: 'newpass1' },
      ann.cookie,
    );
    const { events } = await (
      await svc.fetch('/api/account/security-log', { headers: { cookie: ann.cookie } })
    ).json();
    const kinds = events.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['password_changed', 'sign_in', 'sign_in_failed']);
    expect(events[2]).toMatchObject({ user_agent: FIREFOX, detail: 'password' });
    expect(events[2].address).toBeTruthy();
    const html = await (await svc.fetch('/account', { headers: { cookie: ann.cookie } })).text();
    expect(html).toContain('Failed sign-in');
    expect(html).toContain('Password changed');
  });

  it("refuses the console's forms from another site", async () => {
    const ann = await person();
    const response = await svc.fetch('/account/sessions/sign-out-others', {
      method: 'POST',
      headers: { cookie: ann.cookie, origin: 'https://evil.example', ...FORM },
      body: '',
      redirect: 'manual',
    });
    expect(response.status).toBe(403);
    const reset = await svc.fetch('/password-reset', {
      method: 'POST',
      headers: { origin: 'https://evil.example', ...FORM },
      body: `email=${encodeURIComponent(ann.session.user.email)}`,
      redirect: 'manual',
    });
    expect(reset.status).toBe(403);
  });
});
