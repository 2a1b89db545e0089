/**
 * The identity pages over HTTP: password reset in every realm (and what a reset link of one realm cannot
 * do in another), failed form posts answered as pages, the viewer in every page's header, and the bounded
 * security log.
 */
import { describeEachDatabase, type RunningService } from '@xv/platform/testing';
import { sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { hashPassword } from '../src/accounts/passwords.js';
import { createRealm, createUser } from '../src/accounts/repository.js';
import type { IdentityDb } from '../src/db.js';
import {
  recordSecurityEvent,
  SECURITY_LOG_RETENTION,
  sweepSecurityLog,
} from '../src/self-service/security-log.js';
import {
  createUser as createMember,
  enableTotp,
  signIn,
  signUp,
  startIdentity,
} from '../src/testing/index.js';
import { email, FORM, location, mailedPath, PASSWORD, postForm, postJson, signUpAdmin } from './helpers.js';

const DAY = 24 * 3600 * 1000;

describeEachDatabase('account pages and password reset in every realm', (target) => {
  let svc: RunningService;
  let db: IdentityDb;

  beforeAll(async () => {
    svc = await startIdentity(await target.open('identity'));
    db = svc.context.database.kysely as IdentityDb;
  });

  /** A realm of its own for each test, and a person with `address` in it (password `other-pw`). */
  async function partnerRealm(address: string) {
    const realm = `partners-${Math.random().toString(36).slice(2, 8)}`;
    await createRealm(db, realm, 'Partners');
    const user = await createUser(db, {
      realmId: realm,
      email: address,
      name: 'Partner',
      passwordHash: await hashPassword('other-pw'),
    });
    return { realm, user };
  }
  const canSignIn = async (address: string, password: string, realm?: string) =>
    !location(
      await postForm(svc, '/api/auth/login', { email: address, password, ...(realm ? { realm } : {}) }),
    ).includes('error=');
  const html = async (response: Response) => {
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    return response.text();
  };

  it("a reset link of realm A resets A's account, never the same e-mail in realm B, and works once", async () => {
    const address = email('realms');
    await signUpAdmin(svc.url, { email: address });
    const { realm } = await partnerRealm(address);

    // The realm chosen on the sign-in page goes through the reset request.
    expect(await html(await svc.fetch(`/login?realm=${realm}`))).toContain(
      `href="/password-reset?realm=${realm}"`,
    );
    expect(await html(await svc.fetch(`/password-reset?realm=${realm}`))).toContain(
      `<input type="hidden" name="realm" value="${realm}"`,
    );
    expect(location(await postForm(svc, '/password-reset', { email: address, realm }))).toBe(
      `/password-reset?sent=1&realm=${realm}`,
    );
    const partnerLink = await mailedPath(svc, address, '/password-reset/');
    const done = await postForm(svc, partnerLink, { password: 'partner-new' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain(`href="/login?realm=${realm}"`);
    expect(await canSignIn(address, 'partner-new', realm)).toBe(true);
    // The default realm's account with the same address is untouched.
    expect(await canSignIn(address, PASSWORD)).toBe(true);
    expect(await canSignIn(address, 'partner-new')).toBe(false);

    // Used: refused, and the password stays.
    expect((await postForm(svc, partnerLink, { password: 'partner-again' })).status).toBe(400);
    expect((await svc.fetch(partnerLink)).status).toBe(400);
    expect(await canSignIn(address, 'partner-new', realm)).toBe(true);

    // The default realm's link (the API without a realm) resets the default account only.
    expect((await postJson(svc, '/api/auth/password-reset', { email: address })).status).toBe(202);
    const defaultLink = await mailedPath(svc, address, '/password-reset/');
    expect(defaultLink).not.toBe(partnerLink);
    const token = defaultLink.slice('/password-reset/'.length);
    expect(
      (await postJson(svc, '/api/auth/password-reset/confirm', { token, password: 'default-new' })).status,
    ).toBe(200);
    expect(await canSignIn(address, 'default-new')).toBe(true);
    expect(await canSignIn(address, 'partner-new', realm)).toBe(true);
    expect(await canSignIn(address, 'default-new', realm)).toBe(false);
  });

  it('an expired link of any realm is refused and changes nothing', async () => {
    const address = email('expiring');
    const { realm } = await partnerRealm(address);
    expect((await postJson(svc, '/api/auth/password-reset', { email: address, realm })).status).toBe(202);
    const link = await mailedPath(svc, address, '/password-reset/');
    await sql`update account_tokens set expires_at = ${Date.now() - 1} where purpose = 'password_reset'`.execute(
      db,
    );
    const refused = await postForm(svc, link, { password: 'too-late' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('role="alert"');
    expect(await canSignIn(address, 'other-pw', realm)).toBe(true);
  });

  it('the answer to "reset my password" is the same whether or not the address has an account in the realm', async () => {
    const known = email('known');
    const { realm } = await partnerRealm(known);
    const unknown = email('unknown');
    const onlyElsewhere = email('elsewhere');
    await signUpAdmin(svc.url, { email: onlyElsewhere });
    const answers = [];
    for (const address of [known, unknown, onlyElsewhere]) {
      const api = await postJson(svc, '/api/auth/password-reset', { email: address, realm });
      const form = await postForm(svc, '/password-reset', { email: address, realm });
      answers.push({ api: [api.status, await api.text()], form: [form.status, location(form)] });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]).toEqual({
      api: [202, '{"ok":true}'],
      form: [303, `/password-reset?sent=1&realm=${realm}`],
    });
    // Not a realm id: refused before any look-up.
    expect(
      (await postJson(svc, '/api/auth/password-reset', { email: known, realm: 'No Realm!' })).status,
    ).toBe(400);
  });

  it('a failed form post answers with its page: the error next to the form, what was typed kept, never the password', async () => {
    const ann = await signUpAdmin(svc.url, { email: email('forms'), name: 'Ann Forms' });
    const badEmail = await postForm(svc, '/password-reset', { email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    const resetPage = await html(badEmail);
    expect(resetPage).toMatch(/role="alert"[^>]*>Enter your e-mail address/);
    expect(resetPage).toContain('value="not-an-address"');

    const tooLong = 'N'.repeat(250);
    const profile = await postForm(svc, '/account/profile', { name: tooLong }, ann.cookie);
    expect(profile.status).toBe(400);
    const profilePage = await html(profile);
    expect(profilePage).toContain('id="profile-error"');
    expect(profilePage).toContain(`value="${'N'.repeat(200)}"`);

    const password = await postForm(
      svc,
      '/account/password',
      { current_password: 'typed-secret-1', new_password: 'typed-secret-2' },
      ann.cookie,
    );
    expect(password.status).toBe(403);
    const passwordPage = await html(password);
    expect(passwordPage).toContain('id="password-error"');
    expect(passwordPage).not.toContain('typed-secret');

    const unknownSession = await postForm(svc, '/account/sessions/ses_nope/sign-out', {}, ann.cookie);
    expect(unknownSession.status).toBe(404);
    expect(await html(unknownSession)).toContain('id="sessions-error"');
    // An API caller keeps the JSON error, even on the form's address.
    const asApi = await svc.fetch('/account/sessions/ses_nope/sign-out', {
      method: 'POST',
      headers: { cookie: ann.cookie, accept: 'application/json' },
    });
    expect(asApi.status).toBe(404);
    expect((await asApi.json()).error).toBe('session_not_found');

    const member = await createMember(svc.url, ann.cookie, {
      email: email('member'),
      password: PASSWORD,
      name: 'Mo',
      role: 'member',
    });
    const invited = await postForm(
      svc,
      '/account/invitations',
      { email: member.session.user.email, role: 'reviewer' },
      ann.cookie,
    );
    expect(invited.status).toBe(409);
    const invitePage = await html(invited);
    expect(invitePage).toContain('id="invitations-error"');
    expect(invitePage).toContain(`value="${member.session.user.email}"`);
    expect(invitePage).toMatch(/<option value="reviewer" selected="">/);

    // An invitation opened by the wrong account: the join page says why, with a 403.
    const invitee = email('invitee');
    expect(
      location(await postForm(svc, '/account/invitations', { email: invitee, role: 'member' }, ann.cookie)),
    ).toContain('invitation_sent');
    const link = await mailedPath(svc, invitee, '/invitations/');
    const stranger = await signUpAdmin(svc.url, { email: email('stranger') });
    const wrongAccount = await postForm(svc, link, {}, stranger.cookie);
    expect(wrongAccount.status).toBe(403);
    expect(await html(wrongAccount)).toMatch(/<p class="error" role="alert" id="form-error">/);
  });

  it("sign-in and registration keep the spec's 303 and still give back what was typed, never the password", async () => {
    const ann = await signUpAdmin(svc.url, { email: email('typed') });
    const address = ann.session.user.email;
    const failed = await postForm(svc, '/api/auth/login', { email: address, password: 'typed-secret' });
    expect(location(failed)).toBe('/login?error=1');
    const kept = failed.headers.getSetCookie().find((line) => line.startsWith('xv_typed_login='))!;
    expect(kept).toMatch(/Path=\/login/);
    expect(kept).toMatch(/HttpOnly/);
    expect(decodeURIComponent(kept)).not.toContain('typed-secret');
    const cookie = kept.split(';')[0]!;
    const again = await svc.fetch('/login?error=1', { headers: { cookie } });
    expect(await again.text()).toContain(`value="${address}"`);
    // Read once: the page clears it.
    expect(again.headers.getSetCookie().some((line) => /^xv_typed_login=;.*Max-Age=0/.test(line))).toBe(true);

    const taken = await postForm(svc, '/api/auth/register', {
      email: address,
      password: 'typed-secret',
      name: 'Twice',
      orgName: 'Twice Inc',
    });
    expect(location(taken)).toBe('/register?error=exists');
    const registerCookie = taken.headers
      .getSetCookie()
      .find((line) => line.startsWith('xv_typed_register='))!;
    expect(decodeURIComponent(registerCookie)).not.toContain('typed-secret');
    const form = await (
      await svc.fetch('/register?error=exists', { headers: { cookie: registerCookie.split(';')[0]! } })
    ).text();
    expect(form).toContain(`value="${address}"`);
    expect(form).toContain('value="Twice"');
    expect(form).toContain('value="Twice Inc"');
    expect(form).toMatch(/role="alert"[^>]*>An account with this e-mail address already exists/);
  });

  it('a reset request over the limit answers with the page and a 429', async () => {
    const strict = await startIdentity(await target.open('identity'), {
      XV_IDENTITY_REGISTRATIONS_PER_IP_HOUR: '1',
    });
    try {
      const ask = () =>
        strict.fetch('/password-reset', {
          method: 'POST',
          headers: FORM,
          body: `email=${encodeURIComponent('limit@example.test')}`,
          redirect: 'manual',
        });
      expect((await ask()).status).toBe(303);
      const limited = await ask();
      expect(limited.status).toBe(429);
      const page = await html(limited);
      expect(page).toContain('role="alert"');
      expect(page).toContain('value="limit@example.test"');
    } finally {
      await strict.close();
    }
  });

  it('every identity page shows the signed-in person in the shared header, and "Sign in" to others', async () => {
    const ann = await signUpAdmin(svc.url, { email: email('viewer'), name: 'Ann Viewer' });
    const withTotp = await signUp(svc.url, {
      email: email('totp'),
      password: PASSWORD,
      name: 'T',
      orgName: 'T',
    });
    await enableTotp(svc.url, withTotp.cookie, PASSWORD);
    const started = await postForm(svc, '/api/auth/login', {
      email: withTotp.session.user.email,
      password: PASSWORD,
    });
    const mfa = started.headers
      .getSetCookie()
      .find((line) => line.startsWith('xv_mfa='))!
      .split(';')[0]!;

    await postForm(svc, '/account/email/verification', {}, ann.cookie);
    const verify = await mailedPath(svc, ann.session.user.email, '/verify-email/');
    await postJson(svc, '/api/auth/password-reset', { email: ann.session.user.email });
    const reset = await mailedPath(svc, ann.session.user.email, '/password-reset/');
    const invitee = email('page-invitee');
    await postForm(svc, '/account/invitations', { email: invitee, role: 'member' }, ann.cookie);
    const invitation = await mailedPath(svc, invitee, '/invitations/');

    const pages: [string, string][] = [
      ['/login', ann.cookie],
      ['/register', ann.cookie],
      ['/login/2fa', `${ann.cookie}; ${mfa}`],
      ['/password-reset', ann.cookie],
      [reset, ann.cookie],
      [verify, ann.cookie],
      [invitation, ann.cookie],
      ['/dev/outbox', ann.cookie],
      ['/password-reset/xvr_unknown', ann.cookie],
      ['/account', ann.cookie],
    ];
    for (const [path, cookie] of pages) {
      const response = await svc.fetch(path, { headers: { cookie } });
      const page = await response.text();
      expect(page, path).toMatch(/<a class="person" href="[^"]*\/account">Ann Viewer<\/a>/);
      expect(page, path).toContain('Sign out');
    }
    for (const path of ['/login', '/register', '/password-reset', invitation]) {
      const page = await (await svc.fetch(path)).text();
      expect(page, path).not.toContain('class="person"');
      expect(page, path).toMatch(/<a class="sign-in" href="[^"]*\/login">Sign in<\/a>/);
    }
  });

  it('the security log keeps each person at most 500 entries of the last 90 days, trimmed on write', async () => {
    const ann = await signUpAdmin(svc.url, { email: email('log') });
    const bob = await signUpAdmin(svc.url, { email: email('log-other') });
    const annId = ann.session.user.id;
    const now = Date.now();
    const rows = (userId: string, count: number, from: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `sev_test_${userId}_${from}_${i}`,
        user_id: userId,
        kind: 'sign_in_failed',
        address: '203.0.113.9',
        user_agent: null,
        detail: 'password',
        at: from + i,
      }));
    // 600 recent failures and 5 from long ago, as a guessing storm would leave them.
    await db
      .insertInto('security_events')
      .values(rows(annId, 600, now - DAY))
      .execute();
    await db
      .insertInto('security_events')
      .values(rows(annId, 5, now - 200 * DAY))
      .execute();
    await db
      .insertInto('security_events')
      .values(rows(bob.session.user.id, 3, now - 200 * DAY))
      .execute();

    const before = await db.selectFrom('security_events').select('at').where('user_id', '=', annId).execute();
    await recordSecurityEvent(db, annId, 'password_changed', { address: '203.0.113.1', userAgent: null });
    const kept = await db
      .selectFrom('security_events')
      .select(['kind', 'at'])
      .where('user_id', '=', annId)
      .orderBy('at', 'desc')
      .execute();
    expect(kept).toHaveLength(SECURITY_LOG_RETENTION.maxEvents);
    expect(kept[0]!.kind).toBe('password_changed');
    // The newest are kept (the new one among them), the oldest dropped.
    const newestBefore = before.map((row) => Number(row.at)).sort((a, b) => b - a);
    expect(Number(kept.at(-1)!.at)).toBe(newestBefore[SECURITY_LOG_RETENTION.maxEvents - 2]);
    expect(kept.every((row) => Number(row.at) > now - 90 * DAY)).toBe(true);
    // Another person's log is not touched by Ann's write; the periodic sweep drops its stale entries.
    const bobCount = async () =>
      (
        await db
          .selectFrom('security_events')
          .select('id')
          .where('user_id', '=', bob.session.user.id)
          .execute()
      ).length;
    const bobBefore = await bobCount();
    expect(bobBefore).toBeGreaterThanOrEqual(3);
    expect(await sweepSecurityLog(db)).toBeGreaterThanOrEqual(3);
    expect(await bobCount()).toBe(bobBefore - 3);

    // The page shows times as <time datetime> for the page's script to put in the reader's locale.
    const page = await (await svc.fetch('/account', { headers: { cookie: ann.cookie } })).text();
    expect(page).toMatch(
      /<tr data-event="password_changed"><td><time datetime="\d{4}-\d\d-\d\dT[^"]+Z" data-local="">/,
    );
    const { events } = await (
      await svc.fetch('/api/account/security-log', { headers: { cookie: ann.cookie } })
    ).json();
    expect(events.every((event: { at: number }) => event.at >= now - SECURITY_LOG_RETENTION.maxAgeMs)).toBe(
      true,
    );
    expect(events[0]).toMatchObject({ kind: 'password_changed', device: 'Unknown device' });
  });

  it('signing in and failing are logged for the realm account that was tried', async () => {
    const address = email('realm-log');
    const { realm, user } = await partnerRealm(address);
    await postForm(svc, '/api/auth/login', { email: address, password: 'wrong-pw', realm });
    const { cookie } = await signIn(svc.url, address, 'other-pw', { realm });
    const { events } = await (await svc.fetch('/api/account/security-log', { headers: { cookie } })).json();
    expect(events.map((event: { kind: string }) => event.kind).slice(0, 2)).toEqual([
      'sign_in',
      'sign_in_failed',
    ]);
    expect(user.realm_id).toBe(realm);
  });
});
