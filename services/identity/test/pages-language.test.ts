/**
 * The identity pages in the reader's language: Vietnamese for a browser that asks for it, English when the
 * reader chose English (the remembered `xv_lang` switch), no English left on a Vietnamese page, roles and
 * `?error=` codes worded from the catalogue, e-mails written in the language of whoever asked for them, and
 * the account page's script speaking Vietnamese on a Vietnamese page (real Chromium).
 */
import { LOCALE_COOKIE } from '@xv/platform/i18n';
import { shellMessages } from '@xv/platform/pages';
import {
  catalogueProblems,
  describeEachDatabase,
  englishLeftIn,
  hasChromium,
  launchBrowser,
  type RunningService,
} from '@xv/platform/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/messages/en.js';
import { messages } from '../src/messages/index.js';
import { vi } from '../src/messages/vi.js';
import { enableTotp, signUp } from '../src/testing/index.js';
import {
  type Admin,
  email,
  FORM,
  location,
  mailedPath,
  PASSWORD,
  postJson,
  setCookie,
  signUpAdmin,
  startWithAdmin,
} from './helpers.js';

describe('the identity catalogue', () => {
  it('writes Vietnamese in NFC, with the placeholders of the English message', () => {
    expect(catalogueProblems(messages)).toEqual([]);
  });
});

const VIETNAMESE = { 'accept-language': 'vi-VN,vi;q=0.9,en;q=0.5' };

describeEachDatabase('identity pages in two languages', (target) => {
  let svc: RunningService;
  let admin: Admin;
  let invitee: string;
  /** Someone with 2FA, and the second step of their sign-in. */
  let secondFactor: { cookie: string; mfa: string };
  let paths: { invitation: string; reset: string; verify: string; credential: string };
  let browser: Browser | undefined;

  /** A browser's form post, in the language its headers ask for. */
  const post = (path: string, fields: Record<string, string>, headers: Record<string, string>) =>
    svc.fetch(path, {
      method: 'POST',
      headers: { ...FORM, ...headers },
      body: new URLSearchParams(fields).toString(),
      redirect: 'manual',
    });

  beforeAll(async () => {
    ({ svc, admin } = await startWithAdmin(target, {
      email: email('lan'),
      name: 'Lan',
      orgName: 'Công ty Sao Mai',
    }));
    const asAdmin = { cookie: admin.cookie, ...VIETNAMESE };
    // A pending invitation, a service client and an issued credential, so every card has rows.
    invitee = email('khach');
    expect(
      location(await post('/account/invitations', { email: invitee, role: 'reviewer' }, asAdmin)),
    ).toMatch(/^\/account\?notice=invitation_sent/);
    await postJson(svc, '/api/service-clients', { name: 'Đồng bộ', scopes: ['sync'] }, admin.cookie);
    const issued = await post('/account/credentials/issue', { credential: 'IdentityCredential' }, asAdmin);
    paths = {
      invitation: await mailedPath(svc, invitee, '/invitations/'),
      credential: location(issued).split('?')[0]!,
      reset: '',
      verify: '',
    };
    expect(location(await post('/account/email/verification', {}, asAdmin))).toMatch(
      /notice=verification_sent/,
    );
    paths.verify = await mailedPath(svc, admin.session.user.email, '/verify-email/');
    await post('/password-reset', { email: admin.session.user.email }, VIETNAMESE);
    paths.reset = await mailedPath(svc, admin.session.user.email, '/password-reset/');
    const guarded = await signUpAdmin(svc.url, { email: email('hai'), name: 'Hải' });
    const { cookie } = await enableTotp(svc.url, guarded.cookie, PASSWORD);
    const login = await post(
      '/api/auth/login',
      { email: guarded.session.user.email, password: PASSWORD },
      {},
    );
    secondFactor = { cookie, mfa: setCookie(login, 'xv_mfa')! };
    if (hasChromium()) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Each page, who looks at it, and its heading in each language. */
  const pages = () => {
    const signedIn = admin.cookie;
    return [
      { path: '/login', vi: vi['signIn.title'], en: en['signIn.title'] },
      { path: '/login?aal=AAL2&error=locked', vi: vi['signIn.title'], en: en['signIn.title'] },
      {
        path: '/login/2fa?error=1',
        cookie: secondFactor.mfa,
        vi: vi['twoFactor.heading'],
        en: en['twoFactor.heading'],
      },
      { path: '/register?error=exists', vi: vi['register.title'], en: en['register.title'] },
      {
        path: `/register?redirect=${encodeURIComponent(paths.invitation)}`,
        vi: vi['register.titleInvited'],
        en: en['register.titleInvited'],
      },
      { path: '/password-reset?sent=1&realm=other', vi: vi['reset.title'], en: en['reset.title'] },
      { path: paths.reset, vi: vi['newPassword.title'], en: en['newPassword.title'] },
      { path: '/password-reset/xvr_guess', vi: vi['linkInvalid.title'], en: en['linkInvalid.title'] },
      { path: paths.verify, vi: vi['verifyEmail.title'], en: en['verifyEmail.title'] },
      {
        path: paths.invitation,
        vi: 'Tham gia Công ty Sao Mai',
        en: 'Join Công ty Sao Mai',
      },
      {
        path: paths.invitation,
        cookie: signedIn,
        vi: 'Tham gia Công ty Sao Mai',
        en: 'Join Công ty Sao Mai',
      },
      { path: '/invitations/nope', vi: vi['invitationInvalid.title'], en: en['invitationInvalid.title'] },
      {
        path: '/step-up?redirect=https://evil.test/',
        vi: vi['stepUpLink.title'],
        en: en['stepUpLink.title'],
      },
      { path: '/dev/outbox', vi: vi['outbox.title'], en: en['outbox.title'] },
      { path: '/account', cookie: signedIn, vi: vi['account.title'], en: en['account.title'] },
      { path: '/account?notice=joined', cookie: signedIn, vi: vi['account.title'], en: en['account.title'] },
      {
        path: '/account?stepup=AAL3&notice=totp_disabled',
        cookie: secondFactor.cookie,
        vi: vi['account.title'],
        en: en['account.title'],
      },
      {
        path: '/account/credentials',
        cookie: signedIn,
        vi: vi['credentials.heading'],
        en: en['credentials.heading'],
      },
      { path: paths.credential, cookie: signedIn, vi: 'Chứng chỉ số Danh tính', en: 'Identity credential' },
    ];
  };
  const heading = (html: string) => html.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.trim();
  const fetchIn = (path: string, headers: Record<string, string>, cookie?: string) =>
    svc.fetch(path, { headers: { ...headers, ...(cookie ? { cookie } : {}) } }).then((r) => r.text());

  it('each page answers in Vietnamese to a browser that asks for it', async () => {
    for (const page of pages()) {
      const html = await fetchIn(page.path, VIETNAMESE, page.cookie);
      expect(html, page.path).toContain('<html lang="vi">');
      expect(heading(html), page.path).toBe(page.vi);
    }
  });

  it('the remembered choice of English wins over a Vietnamese Accept-Language', async () => {
    for (const page of pages()) {
      const cookie = [page.cookie, `${LOCALE_COOKIE}=en`].filter(Boolean).join('; ');
      const html = await fetchIn(page.path, { 'accept-language': 'vi' }, cookie);
      expect(html, page.path).toContain('<html lang="en">');
      expect(heading(html), page.path).toBe(page.en);
    }
  });

  it('a Vietnamese page shows no English message of the catalogue', async () => {
    for (const page of pages()) {
      const html = await fetchIn(page.path, VIETNAMESE, page.cookie);
      // The outbox shows each e-mail in its sender's language, which the e-mail tests check.
      const left = englishLeftIn(html, [messages, shellMessages]).filter((key) => !key.startsWith('mail.'));
      expect(left, page.path).toEqual([]);
    }
  });

  it('roles read as labels while the forms submit their codes; states, dates and counts read as Vietnamese', async () => {
    const html = await fetchIn('/account', VIETNAMESE, admin.cookie);
    expect(html).toContain('<option value="admin" selected="">quản trị viên</option>');
    expect(html).toContain('<option value="reviewer">người duyệt</option>');
    expect(html).toMatch(/<td>quản trị viên<\/td>/);
    expect(html).toContain('data-email-verified="no">chưa xác minh</strong>');
    expect(html).toContain(`${vi['log.event.sign_in']}`);
    // The security log's times, written as a Vietnamese reader writes dates.
    expect(html).toMatch(/<time datetime="[^"]+" data-local="">[^<]*thg[^<]*<\/time>/);
    const invitation = await fetchIn(paths.invitation, VIETNAMESE);
    expect(invitation).toContain('với vai trò <strong>người duyệt</strong>');
  });

  it('the sign-in and registration errors of `?error=` are worded from the catalogue', async () => {
    expect(await fetchIn('/login?error=1', VIETNAMESE)).toContain(vi['signIn.error.1']);
    expect(await fetchIn('/login?error=unknown', VIETNAMESE)).toContain(vi['signIn.error.1']);
    expect(await fetchIn('/register?error=exists', VIETNAMESE)).toContain(vi['register.error.exists']);
    expect(await fetchIn('/register?error=invalid', {})).toContain(en['register.error.invalid']);
  });

  it("a failed form post answers with its page and the error in the reader's language", async () => {
    const profile = await post('/account/profile', { name: '' }, { cookie: admin.cookie, ...VIETNAMESE });
    expect(profile.status).toBe(400);
    expect(await profile.text()).toContain(vi['error.display_name_invalid']);
    const reset = await post('/password-reset', { email: 'không phải e-mail' }, VIETNAMESE);
    expect(await reset.text()).toContain(vi['reset.error.email']);
  });

  it('e-mails are written in the language of whoever asked for them', async () => {
    const outbox = await fetchIn('/dev/outbox', {});
    // Asked from Vietnamese pages: the invitation, the verification and the reset.
    expect(outbox).toContain('<h2>Bạn được mời tham gia Công ty Sao Mai trên XV</h2>');
    expect(outbox).toContain('Lan mời bạn tham gia Công ty Sao Mai với vai trò người duyệt.');
    expect(outbox).toContain(`<h2>${vi['mail.verify.subject']}</h2>`);
    expect(outbox).toContain(`<h2>${vi['mail.reset.subject']}</h2>`);
    // Asked from an English page.
    const reader = await signUp(svc.url, { email: email('en'), password: PASSWORD, name: 'E', orgName: 'E' });
    await post('/password-reset', { email: reader.session.user.email }, { 'accept-language': 'en' });
    const english = await fetchIn('/dev/outbox', {});
    const article = english
      .split('<article')
      .find((a) => a.includes(`>${reader.session.user.email}</strong>`));
    expect(article).toContain(`<h2>${en['mail.reset.subject']}</h2>`);
    expect(article).toContain('Someone (hopefully you) asked to reset the password');
  });

  it.runIf(hasChromium())(
    "the account page's script speaks Vietnamese: the confirmation, the card's status line and a new row",
    async () => {
      const base = svc.url.replace('127.0.0.1', 'localhost');
      const context = await browser!.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' });
      const [name, value] = admin.cookie.split(';')[0]!.split('=') as [string, string];
      await context.addCookies([{ name, value, url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/account`);
      expect(await page.locator('html').getAttribute('lang')).toBe('vi');
      // Times are rewritten in the reader's zone, still in Vietnamese.
      await expect.poll(() => page.locator('time[data-local]').first().textContent()).not.toMatch(/UTC$/);
      expect(await page.locator('time[data-local]').first().textContent()).toMatch(/thg/);

      const invitations = page.locator('#invitations-card');
      const again = email('moi');
      await page.getByLabel(vi['invitations.email']).fill(again);
      await page.getByLabel(vi['invitations.role']).selectOption('support');
      await invitations.getByRole('button', { name: vi['invitations.send'] }).click();
      await expect
        .poll(() => page.textContent('#invitations-status'))
        .toBe(vi['invitations.sent'].replace('{email}', again));
      const row = invitations.locator('tr', { hasText: again });
      expect(await row.locator('td').nth(1).textContent()).toBe('hỗ trợ');

      await row.getByText(vi['invitations.revoke.summary']).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await dialog.locator('#confirm-title').textContent()).toBe(
        `${vi['invitations.revoke.button']}?`,
      );
      expect(await dialog.locator('#confirm-text').textContent()).toBe(
        vi['invitations.revoke.wording'].replace('{email}', again),
      );
      expect(await dialog.getByRole('button', { name: vi['confirm.cancel'] }).isVisible()).toBe(true);
      await dialog.getByRole('button', { name: vi['invitations.revoke.button'] }).click();
      await expect.poll(() => page.textContent('#invitations-status')).toBe(vi['invitations.revoke.done']);

      // A refused call reads in Vietnamese too: the catalogue's wording of the API's error code.
      await page.getByLabel(vi['members.email']).fill(email('nobody'));
      await page.locator('#member-form').getByRole('button', { name: vi['members.add'] }).click();
      await expect.poll(() => page.textContent('#member-status')).toBe(vi['error.user_not_found']);
      await context.close();
    },
  );
});
